#include "engine/remote/content_hash.h"

#include <fstream>
#include <stdexcept>

#include <openssl/evp.h>

namespace variate::remote {

struct Sha256::State {
  EVP_MD_CTX* context = EVP_MD_CTX_new();
};

Sha256::Sha256() : state_(new State) { EVP_DigestInit_ex(state_->context, EVP_sha256(), nullptr); }

Sha256::~Sha256() {
  EVP_MD_CTX_free(state_->context);
  delete state_;
}

void Sha256::add(const std::string& bytes) { EVP_DigestUpdate(state_->context, bytes.data(), bytes.size()); }

std::string Sha256::hex() {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_DigestFinal_ex(state_->context, digest, &length);
  static const char* digits = "0123456789abcdef";
  std::string text;
  for (unsigned int i = 0; i < length; ++i) {
    text += digits[digest[i] >> 4];
    text += digits[digest[i] & 15];
  }
  return text;
}

std::string sha256_hex(const std::string& bytes) {
  Sha256 hash;
  hash.add(bytes);
  return hash.hex();
}

std::string file_sha256_hex(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw std::runtime_error("cannot read '" + path + "'");
  Sha256 hash;
  std::string buffer(1 << 20, '\0');
  while (file) {
    file.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    hash.add(buffer.substr(0, static_cast<size_t>(file.gcount())));
  }
  if (file.bad()) throw std::runtime_error("cannot read '" + path + "'");
  return hash.hex();
}

bool is_sha256_hex(const std::string& text) {
  if (text.size() != 64) return false;
  for (char c : text) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

}  // namespace variate::remote
