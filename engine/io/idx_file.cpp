#include "engine/io/idx_file.h"

#include <zlib.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "engine/core/argument_error.h"

namespace variate::io {
namespace {

// gzread reads gzipped and plain files alike.
class Reader {
 public:
  explicit Reader(const std::string& path) : path_(path), file_(gzopen(path.c_str(), "rb"), gzclose) {
    if (!file_) throw ArgumentError(path + ": cannot open the file");
  }
  /// Reads exactly `size` bytes, or fewer at the end of the file; returns how many.
  int64_t read(void* into, int64_t size) {
    int64_t done = 0;
    auto* bytes = static_cast<unsigned char*>(into);
    while (done < size) {
      const unsigned chunk = static_cast<unsigned>(std::min<int64_t>(size - done, 1 << 30));
      const int got = gzread(file_.get(), bytes + done, chunk);
      if (got < 0) throw ArgumentError(path_ + ": not a readable file (damaged gzip data?)");
      if (got == 0) break;
      done += got;
    }
    return done;
  }

 private:
  std::string path_;
  std::unique_ptr<gzFile_s, int (*)(gzFile)> file_;
};

uint32_t big_endian(const unsigned char* b) {
  return static_cast<uint32_t>(b[0]) << 24 | static_cast<uint32_t>(b[1]) << 16 | static_cast<uint32_t>(b[2]) << 8 | b[3];
}

}  // namespace

at::Tensor read_idx_bytes(const std::string& path, std::optional<int64_t> limit) {
  Reader reader(path);
  unsigned char magic[4];
  if (reader.read(magic, 4) != 4 || magic[0] != 0 || magic[1] != 0 || magic[3] == 0 || magic[3] > 4) {
    throw ArgumentError(path + ": not an IDX file (it does not start with 0x00 0x00, a type and 1-4 dimensions)");
  }
  if (magic[2] != 0x08) {
    throw ArgumentError(path + ": IDX elements of type 0x" + std::to_string(magic[2]) +
                        "; only unsigned bytes (0x08) are read");
  }
  std::vector<int64_t> shape(magic[3]);
  for (int64_t& size : shape) {
    unsigned char b[4];
    if (reader.read(b, 4) != 4) throw ArgumentError(path + ": IDX header cut short");
    size = big_endian(b);
  }
  if (limit && *limit < shape[0]) shape[0] = std::max<int64_t>(0, *limit);
  int64_t expected = 1;
  for (const int64_t size : shape) {
    if (__builtin_mul_overflow(expected, size, &expected)) {
      throw ArgumentError(path + ": its IDX sizes call for more than 2^63 bytes (a damaged header?)");
    }
  }
  // The sizes are the file's word: read what is there in chunks, and allocate the whole
  // only once the bytes have come, so a damaged header cannot ask for terabytes.
  constexpr int64_t kChunk = int64_t{1} << 24;
  std::vector<std::vector<uint8_t>> chunks;
  int64_t got = 0;
  while (got < expected) {
    chunks.emplace_back(static_cast<size_t>(std::min(kChunk, expected - got)));
    const int64_t read = reader.read(chunks.back().data(), static_cast<int64_t>(chunks.back().size()));
    got += read;
    if (read < static_cast<int64_t>(chunks.back().size())) break;
  }
  if (got != expected) {
    throw ArgumentError(path + ": IDX data cut short: its sizes call for " + std::to_string(expected) +
                        " bytes, the file has " + std::to_string(got));
  }
  at::Tensor values = at::empty(shape, at::kByte);
  uint8_t* into = values.data_ptr<uint8_t>();
  for (auto& chunk : chunks) {
    std::copy(chunk.begin(), chunk.end(), into);
    into += chunk.size();
    std::vector<uint8_t>().swap(chunk);
  }
  return values;
}

ImageSet read_image_set(const std::string& images_path, const std::string& labels_path,
                        std::optional<int64_t> limit) {
  const at::Tensor images = read_idx_bytes(images_path, limit);
  const at::Tensor labels = read_idx_bytes(labels_path, limit);
  if (images.dim() != 3) {
    throw ArgumentError(images_path + ": expected images (3 dimensions: count, rows, columns), got " +
                        std::to_string(images.dim()));
  }
  if (labels.dim() != 1) {
    throw ArgumentError(labels_path + ": expected labels (1 dimension), got " + std::to_string(labels.dim()));
  }
  if (images.size(0) != labels.size(0)) {
    throw ArgumentError(images_path + " holds " + std::to_string(images.size(0)) + " images, " + labels_path +
                        " " + std::to_string(labels.size(0)) + " labels");
  }
  ImageSet set;
  set.rows = images.size(1);
  set.cols = images.size(2);
  set.images = images.reshape({images.size(0), set.rows * set.cols}).to(at::kDouble).div_(255.0);
  set.labels = labels.to(at::kLong);
  return set;
}

}  // namespace variate::io
