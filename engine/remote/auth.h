#pragma once
/// The worker's access check: a bearer token every call carries ("authorization: Bearer
/// TOKEN" metadata), read from a file only its owner may read, compared in constant time.
/// Over TLS the token is encrypted on the wire; without TLS (loopback only) it is not.

#include <string>

#include <grpcpp/client_context.h>
#include <grpcpp/server_context.h>
#include <grpcpp/support/status.h>

namespace variate::remote {

/// Shorter tokens are refused: 16 printable characters are about 100 bits at best.
inline constexpr size_t kMinimumTokenLength = 16;

/// The token in `path` (surrounding whitespace dropped).
/// @throws std::runtime_error when the file cannot be read, is readable or writable by
/// its group or others, or holds no token, one over 4096 bytes or under
/// kMinimumTokenLength, or one with a byte that is not printable ASCII (space included).
/// The message never shows the token.
std::string read_token_file(const std::string& path);

/// Whether `given` is `expected`, in time that does not depend on where they differ.
bool tokens_equal(const std::string& given, const std::string& expected);

/// OK when `context` carries the token; UNAUTHENTICATED (and nothing runs) otherwise.
grpc::Status authorize(const grpc::ServerContext& context, const std::string& token);

/// Adds the token to a call.
void add_token(grpc::ClientContext& context, const std::string& token);

}  // namespace variate::remote
