#include "engine/remote/tls_files.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

namespace variate::remote {
namespace {

std::string read_file(const std::string& path, const std::string& option) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw std::runtime_error(option + " '" + path + "': cannot read it: " + std::strerror(errno));
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

using Bio = std::unique_ptr<BIO, decltype(&BIO_free)>;
Bio memory_bio(const std::string& text) {
  return Bio(BIO_new_mem_buf(text.data(), static_cast<int>(text.size())), &BIO_free);
}

using Certificate = std::unique_ptr<X509, decltype(&X509_free)>;
Certificate first_certificate(const std::string& pem) {
  Bio bio = memory_bio(pem);
  Certificate certificate(PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr), &X509_free);
  ERR_clear_error();  // OpenSSL's queue would otherwise leak into gRPC's own reports
  return certificate;
}

}  // namespace

std::string read_certificate_file(const std::string& path, const std::string& option) {
  const std::string pem = read_file(path, option);
  if (!first_certificate(pem)) {
    const bool key = pem.find("PRIVATE KEY-----") != std::string::npos;
    throw std::runtime_error(option + " '" + path + "' " +
                             (key ? "is a private key, not a certificate"
                                  : "holds no PEM certificate (-----BEGIN CERTIFICATE----- ... -----END CERTIFICATE-----)"));
  }
  return pem;
}

std::string read_private_key_file(const std::string& key_path, const std::string& certificate,
                                  const std::string& certificate_path) {
  const std::string pem = read_file(key_path, "--tls-key");
  Bio bio = memory_bio(pem);
  std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr),
                                                          &EVP_PKEY_free);
  ERR_clear_error();
  if (!key) {
    throw std::runtime_error("--tls-key '" + key_path + "' holds no PEM private key (or one protected by a passphrase, "
                             "which the worker cannot ask for)");
  }
  const Certificate cert = first_certificate(certificate);
  if (!cert || X509_check_private_key(cert.get(), key.get()) != 1) {
    ERR_clear_error();
    throw std::runtime_error("--tls-key '" + key_path + "' is not the key of the certificate in --tls-cert '" +
                             certificate_path + "'");
  }
  return pem;
}

}  // namespace variate::remote
