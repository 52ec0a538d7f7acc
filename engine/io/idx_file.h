#pragma once
/// IDX files, the format of MNIST and Fashion-MNIST (Debian's `dataset-fashion-mnist`
/// ships them gzipped under /usr/share/datasets/fashion-mnist): a magic number naming the
/// element type and the number of dimensions, the sizes (big-endian 32-bit), then the
/// elements. Read plain or gzipped (by content, not by name).
///
///   const io::ImageSet train = io::read_image_set(dir + "/train-images-idx3-ubyte.gz",
///                                                 dir + "/train-labels-idx1-ubyte.gz");
///   train.images;  // [60000, 784] float64 in [0, 1]

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <ATen/ATen.h>

namespace variate::io {

/// Reads an IDX file of unsigned bytes (type 0x08), at most `limit` items (the first
/// dimension), as a uint8 tensor of the file's shape.
/// @throws ArgumentError naming the file: unreadable, not IDX (its magic number), another
/// element type, or shorter than its sizes say.
at::Tensor read_idx_bytes(const std::string& path, std::optional<int64_t> limit = std::nullopt);

/// Images with their labels.
struct ImageSet {
  at::Tensor images;  ///< [n, rows * cols] float64, pixel intensities / 255
  at::Tensor labels;  ///< [n] int64
  int64_t rows = 0;
  int64_t cols = 0;
};

/// The images of an idx3 file and the labels of an idx1 file, at most `limit` of each.
/// @throws ArgumentError as read_idx_bytes, or when the files disagree on the count.
ImageSet read_image_set(const std::string& images_path, const std::string& labels_path,
                        std::optional<int64_t> limit = std::nullopt);

}  // namespace variate::io
