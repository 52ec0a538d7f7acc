#pragma once
// A `variate worker` on 127.0.0.1 at a port the system picks, for the remote suites: a
// token file made for it (mode 600), optionally a self-signed certificate for 127.0.0.1
// made with openssl at test time; stopped (SIGTERM, then SIGKILL) by its PID alone, and
// killed with the test if the test itself is killed (PR_SET_PDEATHSIG).

#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>

#include <QtTest/QtTest>

namespace remote_test {

inline QString write_token(const QString& folder, const QString& name, const QByteArray& token) {
  const QString path = folder + "/" + name;
  QFile file(path);
  file.open(QIODevice::WriteOnly);
  file.write(token + "\n");
  file.close();
  ::chmod(path.toLocal8Bit().constData(), 0600);
  return path;
}

/// A self-signed certificate and key for 127.0.0.1 in `folder` (cert.pem, key.pem); false
/// when openssl fails.
inline bool make_certificate(const QString& folder) {
  QProcess openssl;
  openssl.setProcessChannelMode(QProcess::MergedChannels);
  openssl.start("openssl", {"req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                            "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", folder + "/key.pem", "-out",
                            folder + "/cert.pem"});
  return openssl.waitForFinished(60000) && openssl.exitCode() == 0;
}

class LoopbackWorker {
 public:
  /// Starts the worker with `extra` arguments; address() is empty when it did not come up.
  LoopbackWorker(const QString& program, const QString& folder, const QStringList& extra = {}) {
    token_file_ = write_token(folder, "worker.token", "s3cret-token-for-tests");
    process_.setProgram(program);
    process_.setArguments(QStringList{"worker", "--listen", "127.0.0.1:0", "--token-file", token_file_,
                                      "--jobs-dir", folder + "/jobs", "--heartbeat-seconds", "0.5"} + extra);
    process_.setProcessChannelMode(QProcess::SeparateChannels);
    process_.setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGKILL); });
    process_.start();
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < 60000 && process_.state() != QProcess::NotRunning) {
      process_.waitForReadyRead(200);
      output_ += QString::fromUtf8(process_.readAllStandardOutput());
      const QRegularExpressionMatch m = QRegularExpression("listening on (127\\.0\\.0\\.1:\\d+)").match(output_);
      if (m.hasMatch()) {
        address_ = m.captured(1);
        return;
      }
    }
  }
  ~LoopbackWorker() { stop(); }

  QString address() const { return address_; }
  QString token_file() const { return token_file_; }
  qint64 pid() const { return process_.processId(); }
  QString errors() { return QString::fromUtf8(process_.readAllStandardError()); }
  /// SIGKILL, as a crash or a pulled plug would end it.
  void kill() {
    process_.kill();
    process_.waitForFinished(10000);
  }
  void stop() {
    if (process_.state() == QProcess::NotRunning) return;
    process_.terminate();
    if (!process_.waitForFinished(15000)) kill();
  }

 private:
  QProcess process_;
  QString token_file_;
  QString output_;
  QString address_;
};

}  // namespace remote_test
