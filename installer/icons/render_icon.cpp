// render_icon INPUT.svg SIZE OUTPUT.png: renders an SVG icon as a square, antialiased PNG on
// a transparent background. A build-time tool for the hicolor icon sizes.
//
// No QGuiApplication: raster painting into a QImage needs none, so the tool runs on a
// headless build machine without a platform plugin. (Text would need one for its fonts;
// icons keep their text as paths.)
#include <QImage>
#include <QPainter>
#include <QString>
#include <QSvgRenderer>

#include <cstdio>

namespace {

int fail(const QString& message) {
  std::fprintf(stderr, "render_icon: %s\n", qUtf8Printable(message));
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) return fail("usage: render_icon INPUT.svg SIZE OUTPUT.png");
  const QString input = QString::fromLocal8Bit(argv[1]);
  const QString output = QString::fromLocal8Bit(argv[3]);
  bool ok = false;
  const int size = QString::fromLocal8Bit(argv[2]).toInt(&ok);
  if (!ok || size < 1 || size > 4096)
    return fail(QString("SIZE must be a number of pixels from 1 to 4096, not '%1'").arg(argv[2]));

  QSvgRenderer renderer(input);
  if (!renderer.isValid()) return fail(QString("'%1' is not a readable SVG file").arg(input));
  renderer.setAspectRatioMode(Qt::KeepAspectRatio);

  QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::transparent);
  {
    QPainter painter(&image);
    painter.setRenderHints(QPainter::Antialiasing | QPainter::SmoothPixmapTransform);
    renderer.render(&painter);
  }  // The painter must end before the image is saved.
  if (!image.save(output, "PNG")) return fail(QString("cannot write '%1'").arg(output));
  return 0;
}
