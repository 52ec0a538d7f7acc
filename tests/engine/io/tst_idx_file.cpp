// IDX files (MNIST's format) plain and gzipped, every way they go wrong, and Debian's
// Fashion-MNIST (installer/setup.sh installs dataset-fashion-mnist).

#include <QtTest/QtTest>

#include "engine/core/checks.h"
#include "engine/io/idx_file.h"

namespace vio = variate::io;

namespace {

const QString kFashion = QStringLiteral("/usr/share/datasets/fashion-mnist");

QByteArray idx_header(unsigned char type, std::vector<uint32_t> sizes) {
  QByteArray bytes;
  bytes.append('\0').append('\0').append(static_cast<char>(type)).append(static_cast<char>(sizes.size()));
  for (const uint32_t size : sizes) {
    for (int shift = 24; shift >= 0; shift -= 8) bytes.append(static_cast<char>((size >> shift) & 0xff));
  }
  return bytes;
}

QString write_file(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes, bool gzipped = false) {
  const QString path = dir.filePath(name);
  QFile file(path);
  file.open(QIODevice::WriteOnly);
  file.write(bytes);
  file.close();
  if (!gzipped) return path;
  QProcess gzip;
  gzip.start("gzip", {"-f", path});
  gzip.waitForFinished();
  return path + ".gz";
}

// 3 images of 2 x 2 pixels and their labels.
QByteArray images() {
  QByteArray bytes = idx_header(0x08, {3, 2, 2});
  for (int i = 0; i < 12; ++i) bytes.append(static_cast<char>(i * 20));
  return bytes;
}
QByteArray labels(uint32_t n = 3) {
  QByteArray bytes = idx_header(0x08, {n});
  for (uint32_t i = 0; i < n; ++i) bytes.append(static_cast<char>(i % 10));
  return bytes;
}

void expect_error(const std::function<void()>& read, const QString& part) {
  try {
    read();
    QFAIL("expected an error");
  } catch (const variate::ArgumentError& e) {
    QVERIFY2(QString(e.what()).contains(part), e.what());
  }
}

}  // namespace

class TestIdxFile : public QObject {
  Q_OBJECT

 private slots:
  void plainAndGzipped() {
    QTemporaryDir dir;
    for (const bool gzipped : {false, true}) {
      const auto set = vio::read_image_set(write_file(dir, "i.idx", images(), gzipped).toStdString(),
                                           write_file(dir, "l.idx", labels(), gzipped).toStdString());
      QCOMPARE(set.images.sizes(), (c10::IntArrayRef{3, 4}));
      QCOMPARE(set.rows, int64_t{2});
      QCOMPARE(set.images.scalar_type(), at::kDouble);
      QCOMPARE(set.images[1][0].item<double>(), 80.0 / 255.0);  // row-major pixels
      QCOMPARE(set.labels[2].item<int64_t>(), int64_t{2});
    }
  }

  void aLimitReadsTheFirstItems() {
    QTemporaryDir dir;
    const auto set = vio::read_image_set(write_file(dir, "i.idx", images()).toStdString(),
                                         write_file(dir, "l.idx", labels()).toStdString(), 2);
    QCOMPARE(set.images.size(0), int64_t{2});
    QCOMPARE(set.labels.size(0), int64_t{2});
  }

  void errorsNameTheFileAndWhatIsWrong() {
    QTemporaryDir dir;
    const std::string missing = dir.filePath("none.idx").toStdString();
    expect_error([&] { vio::read_idx_bytes(missing); }, "cannot open");
    const std::string text = write_file(dir, "t.idx", "{\"N\": 3}").toStdString();
    expect_error([&] { vio::read_idx_bytes(text); }, "not an IDX file");
    const std::string floats = write_file(dir, "f.idx", idx_header(0x0D, {2}) + QByteArray(8, '\0')).toStdString();
    expect_error([&] { vio::read_idx_bytes(floats); }, "only unsigned bytes");
    const std::string short_data = write_file(dir, "s.idx", images().left(10)).toStdString();
    expect_error([&] { vio::read_idx_bytes(short_data); }, "cut short");
    const std::string cut = write_file(dir, "c.idx", images().chopped(3), true).toStdString();
    expect_error([&] { vio::read_idx_bytes(cut); }, "the file has 9");
    const std::string image_file = write_file(dir, "i.idx", images()).toStdString();
    const std::string four_labels = write_file(dir, "l4.idx", labels(4)).toStdString();
    expect_error([&] { vio::read_image_set(image_file, four_labels); }, "4 labels");
    expect_error([&] { vio::read_image_set(four_labels, four_labels); }, "expected images");
  }

  // The header's sizes are the file's word, not an allocation: 10^9 images of 28 x 28
  // (784 GB) over 100 bytes of data is an error naming what the file has (the allocation
  // it called for would fail, or succeed and be killed by the system), and sizes whose
  // product overflows int64 are named too.
  void headerSizesAllocateNothing() {
    QTemporaryDir dir;
    const std::string huge = write_file(dir, "h.idx", idx_header(0x08, {1000000000, 28, 28}) + QByteArray(100, '\1')).toStdString();
    expect_error([&] { vio::read_idx_bytes(huge); }, "IDX data cut short: its sizes call for 784000000000 bytes, the file has 100");
    const std::string gzipped =
        write_file(dir, "g.idx", idx_header(0x08, {1000000000, 28, 28}) + QByteArray(100, '\1'), true).toStdString();
    expect_error([&] { vio::read_idx_bytes(gzipped); }, "the file has 100");
    const std::string overflow =
        write_file(dir, "o.idx", idx_header(0x08, {0xffffffffu, 0xffffffffu, 0xffffffffu}) + QByteArray(8, '\0')).toStdString();
    expect_error([&] { vio::read_idx_bytes(overflow); }, "its IDX sizes call for more than 2^63 bytes");
  }

  // The test set of Fashion-MNIST: 10,000 28 x 28 images, 1,000 of each of 10 classes.
  void fashionMnist() {
    const auto test = vio::read_image_set((kFashion + "/t10k-images-idx3-ubyte.gz").toStdString(),
                                          (kFashion + "/t10k-labels-idx1-ubyte.gz").toStdString());
    QCOMPARE(test.images.sizes(), (c10::IntArrayRef{10000, 784}));
    QCOMPARE(test.rows, int64_t{28});
    QVERIFY(test.images.min().item<double>() >= 0 && test.images.max().item<double>() <= 1);
    const at::Tensor counts = at::bincount(test.labels);
    QCOMPARE(counts.size(0), int64_t{10});
    QVERIFY(at::all(counts == 1000).item<bool>());
    const auto train = vio::read_image_set((kFashion + "/train-images-idx3-ubyte.gz").toStdString(),
                                           (kFashion + "/train-labels-idx1-ubyte.gz").toStdString(), 128);
    QCOMPARE(train.images.size(0), int64_t{128});
  }
};

QTEST_GUILESS_MAIN(TestIdxFile)
#include "tst_idx_file.moc"
