#pragma once
/// The PEM files of TLS (--tls-cert, --tls-key, --tls-ca), read and checked with OpenSSL
/// before gRPC gets them: gRPC would fail later, at the handshake or in a log line, naming
/// neither the file nor what is wrong with it.

#include <string>

namespace variate::remote {

/// The certificates in `path` (one or more, PEM). `option` names the flag in messages.
/// @throws std::runtime_error "--tls-ca 'ca.pem': cannot read it: No such file or
/// directory", "... holds no PEM certificate", "... is a private key, not a certificate".
std::string read_certificate_file(const std::string& path, const std::string& option);

/// The private key in `key_path`, checked against the first certificate of `certificate`
/// (read from `certificate_path`).
/// @throws std::runtime_error when it cannot be read, is not a PEM private key, or does
/// not belong to the certificate.
std::string read_private_key_file(const std::string& key_path, const std::string& certificate,
                                  const std::string& certificate_path);

}  // namespace variate::remote
