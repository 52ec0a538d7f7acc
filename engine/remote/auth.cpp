#include "engine/remote/auth.h"

#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <openssl/crypto.h>
#include <openssl/sha.h>

namespace variate::remote {

std::string read_token_file(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) throw std::runtime_error("cannot read the token file '" + path + "'");
  if (info.st_mode & (S_IRWXG | S_IRWXO)) {
    throw std::runtime_error("the token file '" + path + "' is readable or writable by others: chmod 600 it");
  }
  std::ifstream file(path, std::ios::binary);
  std::stringstream text;
  text << file.rdbuf();
  if (!file) throw std::runtime_error("cannot read the token file '" + path + "'");
  std::string token = text.str();
  const auto first = token.find_first_not_of(" \t\r\n");
  const auto last = token.find_last_not_of(" \t\r\n");
  token = first == std::string::npos ? "" : token.substr(first, last - first + 1);
  if (token.empty()) throw std::runtime_error("the token file '" + path + "' is empty");
  if (token.size() > 4096) throw std::runtime_error("the token in '" + path + "' is longer than 4096 bytes");
  // A gRPC header carries printable ASCII only: raw random bytes would abort every call
  // inside gRPC (which prints the header). Neither the token nor its bytes are ever shown.
  const auto unprintable = [](char c) { return c < 0x21 || c > 0x7e; };
  if (std::any_of(token.begin(), token.end(), unprintable)) {
    throw std::runtime_error("the token in '" + path + "' holds bytes that are not printable ASCII (raw random bytes?): "
                             "write it encoded, as `head -c 32 /dev/urandom | base64 > " + path + "`");
  }
  if (token.size() < kMinimumTokenLength) {
    throw std::runtime_error("the token in '" + path + "' has " + std::to_string(token.size()) + " characters; use at least " +
                             std::to_string(kMinimumTokenLength) + ", as `head -c 32 /dev/urandom | base64 > " + path + "`");
  }
  return token;
}

bool tokens_equal(const std::string& given, const std::string& expected) {
  // Equal-length digests, so neither the length nor the first difference shows in the time.
  unsigned char a[SHA256_DIGEST_LENGTH], b[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(given.data()), given.size(), a);
  SHA256(reinterpret_cast<const unsigned char*>(expected.data()), expected.size(), b);
  return CRYPTO_memcmp(a, b, sizeof a) == 0;
}

grpc::Status authorize(const grpc::ServerContext& context, const std::string& token) {
  const auto& metadata = context.client_metadata();
  const auto found = metadata.find("authorization");
  if (found == metadata.end()) return {grpc::StatusCode::UNAUTHENTICATED, "no token: give --token-file"};
  const std::string value(found->second.data(), found->second.size());
  const std::string prefix = "Bearer ";
  if (value.compare(0, prefix.size(), prefix) != 0 || !tokens_equal(value.substr(prefix.size()), token)) {
    return {grpc::StatusCode::UNAUTHENTICATED, "wrong token"};
  }
  return grpc::Status::OK;
}

void add_token(grpc::ClientContext& context, const std::string& token) {
  context.AddMetadata("authorization", "Bearer " + token);
}

}  // namespace variate::remote
