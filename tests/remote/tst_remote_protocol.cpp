// The worker protocol at the level of its calls, against a `variate worker` on 127.0.0.1:
// every call refused without the token or with a wrong one (and nothing runs); requests
// over the bounds, with options naming files or hosts, or plain garbage (1,000 of them)
// refused while the worker keeps serving; data uploaded once per content hash; an event
// stream resumed from any seq continues without gaps or repeats; four clients following
// one job all receive every event; a job paused while it queues starts held.

#include <future>
#include <random>
#include <thread>

#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>
#include <QtTest/QtTest>

#include "engine/remote/auth.h"
#include "engine/remote/limits.h"
#include "engine/remote/remote_client.h"
#include "tests/support/loopback_worker.h"

using remote_test::LoopbackWorker;
using namespace variate::remote;

namespace {

const QString kEightSchools = QStringLiteral(QT_TESTCASE_SOURCEDIR "/../projects/eight_schools/");
const QString kRadon = QStringLiteral(QT_TESTCASE_SOURCEDIR "/../projects/radon/");

std::string read_all(const QString& path) {
  QFile file(path);
  file.open(QIODevice::ReadOnly);
  return file.readAll().toStdString();
}

v1::SubmitRequest sample_request(const QString& model, std::vector<std::string> arguments) {
  v1::SubmitRequest request;
  request.set_command("sample");
  request.set_model_text(read_all(model));
  request.set_model_name(model.toStdString());
  for (auto& argument : arguments) request.add_arguments(argument);
  return request;
}

// Every event of `job` from `from`, as serialized messages.
std::vector<std::string> follow_all(const RemoteClient& client, const std::string& job, uint64_t from) {
  std::vector<std::string> events;
  client.follow(job, from, [&](const v1::RunEvent& e) { events.push_back(e.SerializeAsString()); }, {});
  return events;
}

}  // namespace

class TestRemoteProtocol : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QVERIFY(folder_.isValid());
    worker_ = std::make_unique<LoopbackWorker>(VARIATE_EXECUTABLE, folder_.path());
    QVERIFY2(!worker_->address().isEmpty(), qPrintable(worker_->errors()));
    endpoint_ = WorkerEndpoint::from_files(worker_->address().toStdString(), worker_->token_file().toStdString(),
                                           std::nullopt);
    channel_ = grpc::CreateChannel(endpoint_.address, grpc::InsecureChannelCredentials());
    stub_ = v1::Worker::NewStub(channel_);
  }
  void cleanupTestCase() { worker_.reset(); }

  void hello() {
    const v1::HelloReply reply = RemoteClient(endpoint_).hello();
    QCOMPARE(QString::fromStdString(reply.protocol()), QString(kProtocol));
    QVERIFY(reply.cores() >= 1);
    QCOMPARE(QString::fromStdString(reply.devices(0)), QString("cpu"));
  }

  void everyCallNeedsTheToken() {
    for (const char* token : {"", "wrong", "s3cret-token-for-test"}) {
      grpc::ClientContext context;
      if (*token) add_token(context, token);
      v1::SubmitReply reply;
      const grpc::Status status = stub_->Submit(&context, sample_request(kEightSchools + "eight_schools.vmod", {}), &reply);
      QCOMPARE(status.error_code(), grpc::StatusCode::UNAUTHENTICATED);
    }
    grpc::ClientContext context;
    v1::HelloReply reply;
    QCOMPARE(stub_->Hello(&context, {}, &reply).error_code(), grpc::StatusCode::UNAUTHENTICATED);
    grpc::ClientContext attach;
    v1::AttachRequest request;
    request.set_job_id("0123456789abcdef");
    auto reader = stub_->Attach(&attach, request);
    v1::RunEvent event;
    QVERIFY(!reader->Read(&event));
    QCOMPARE(reader->Finish().error_code(), grpc::StatusCode::UNAUTHENTICATED);
    QCOMPARE(RemoteClient(endpoint_).jobs().size(), size_t{0});  // nothing ran
  }

  void requestsOverTheBoundsAreRefused() {
    grpc::ClientContext context;
    add_token(context, endpoint_.token);
    v1::SubmitRequest huge = sample_request(kEightSchools + "eight_schools.vmod", {});
    huge.set_model_text(std::string(5 << 20, 'x'));
    v1::SubmitReply reply;
    QCOMPARE(stub_->Submit(&context, huge, &reply).error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
    const auto refused = [&](std::vector<std::string> arguments) {
      grpc::ClientContext call;
      add_token(call, endpoint_.token);
      v1::SubmitReply answer;
      return stub_->Submit(&call, sample_request(kEightSchools + "eight_schools.vmod", std::move(arguments)), &answer);
    };
    for (const auto& arguments : std::vector<std::vector<std::string>>{
             {"--output", "/tmp/elsewhere"}, {"--project=/tmp/p.variate"}, {"--rendezvous", "10.0.0.1:29500"},
             {"--data", "/etc/passwd"}, {"--nproc", "100000"}, {"--resume-from", "/etc/passwd"}}) {
      const grpc::Status status = refused(arguments);
      QVERIFY2(status.error_code() == grpc::StatusCode::INVALID_ARGUMENT, arguments.front().c_str());
    }
    v1::SubmitRequest unknown = sample_request(kEightSchools + "eight_schools.vmod", {});
    unknown.set_command("export");
    grpc::ClientContext call;
    add_token(call, endpoint_.token);
    QCOMPARE(stub_->Submit(&call, unknown, &reply).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    QCOMPARE(RemoteClient(endpoint_).jobs().size(), size_t{0});
    RemoteClient(endpoint_).hello();  // still serving
  }

  // Random bytes as the body of every call: refused (a parse error or a failed check), and
  // the worker keeps serving.
  void malformedRequestsLeaveTheWorkerServing() {
    grpc::GenericStub generic(channel_);
    std::mt19937_64 random(7);
    const char* methods[] = {"Hello", "HasData", "Submit", "Cancel", "Pause", "Resume", "GetJob", "ListJobs"};
    int refused = 0;
    for (int i = 0; i < 1000; ++i) {
      std::string bytes(random() % 512, '\0');
      for (char& c : bytes) c = static_cast<char>(random());
      grpc::Slice slice(bytes);
      grpc::ByteBuffer request(&slice, 1), response;
      grpc::ClientContext context;
      add_token(context, endpoint_.token);
      std::promise<grpc::Status> done;
      generic.UnaryCall(&context, std::string("/variate.remote.v1.Worker/") + methods[i % 8], grpc::StubOptions(),
                        &request, &response, [&](grpc::Status status) { done.set_value(status); });
      refused += !done.get_future().get().ok();
    }
    qInfo("%d of 1000 malformed requests refused (the others parsed as harmless requests: Hello, ListJobs)", refused);
    QVERIFY(refused > 500);
    RemoteClient(endpoint_).hello();
    QCOMPARE(RemoteClient(endpoint_).jobs().size(), size_t{0});
  }

  void dataIsUploadedOncePerContent() {
    const RemoteClient client(endpoint_);
    const std::string path = (kEightSchools + "data.json").toStdString();
    const v1::DataRef first = client.put_data(path);
    QCOMPARE(first.size(), static_cast<int64_t>(read_all(kEightSchools + "data.json").size()));
    grpc::ClientContext context;
    add_token(context, endpoint_.token);
    v1::HasDataReply present;
    QVERIFY(stub_->HasData(&context, first, &present).ok());
    QVERIFY(present.present());
    QCOMPARE(client.put_data(path).sha256(), first.sha256());
    // An upload whose bytes do not match its declared hash is refused.
    grpc::ClientContext upload;
    add_token(upload, endpoint_.token);
    v1::DataRef stored;
    auto writer = stub_->UploadData(&upload, &stored);
    v1::DataChunk chunk;
    *chunk.mutable_data() = first;
    chunk.mutable_data()->set_sha256(std::string(64, 'a'));
    chunk.set_content(read_all(kEightSchools + "data.json"));
    writer->Write(chunk);
    writer->WritesDone();
    QCOMPARE(writer->Finish().error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  }

  // A data set naming a file on the worker's host (absolute, or one never uploaded) is
  // refused: the worker opens only what its clients upload.
  void dataNamingAHostFileIsRefused_data() {
    QTest::addColumn<QString>("path");
    QTest::newRow("absolute") << "/etc/passwd";
    QTest::newRow("relative") << "../../worker.token";
    QTest::newRow("not uploaded") << QString(64, 'b') + ".idx";
  }
  void dataNamingAHostFileIsRefused() {
    QFETCH(QString, path);
    const QString json = folder_.path() + "/names_a_file.json";
    QFile file(json);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(("{\"N\": 1, \"labels\": {\"idx_labels\": \"" + path + "\"}}").toUtf8());
    file.close();
    const RemoteClient client(endpoint_);
    v1::SubmitRequest request = sample_request(kEightSchools + "eight_schools.vmod", {"--seed", "1"});
    *request.mutable_data() = client.put_data(json.toStdString());  // as a raw client would: the path as it is
    grpc::ClientContext context;
    add_token(context, endpoint_.token);
    v1::SubmitReply reply;
    const grpc::Status status = stub_->Submit(&context, request, &reply);
    QCOMPARE(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    QVERIFY2(QString::fromStdString(status.error_message()).contains("which was not uploaded with it"),
             status.error_message().c_str());
  }

  // Over 2 MiB: three chunks, stored whole under its hash.
  void aLargeDataSetGoesUpInChunks() {
    QString json = "{\"N\": 600000, \"y\": [";
    for (int i = 0; i < 600000; ++i) json += (i ? ",0." : "0.") + QString::number(i % 1000);
    json += "]}";
    const QString path = folder_.path() + "/large.json";
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(json.toUtf8());
    file.close();
    QVERIFY(file.size() > 2 * (1 << 20));
    const v1::DataRef ref = RemoteClient(endpoint_).put_data(path.toStdString());
    QCOMPARE(ref.size(), file.size());
    const QString stored = folder_.path() + "/jobs/data/" + QString::fromStdString(ref.sha256()) + ".json";
    QCOMPARE(QString::fromStdString(read_all(stored)), json);
  }

  void followingResumesFromAnySeq() {
    const RemoteClient client(endpoint_);
    v1::SubmitRequest request = sample_request(kEightSchools + "eight_schools.vmod",
                                               {"--chains", "2", "--warmup", "100", "--draws", "300", "--seed", "9"});
    *request.mutable_data() = client.put_data((kEightSchools + "data.json").toStdString());
    const std::string job = client.submit(request);
    const std::vector<std::string> all = follow_all(client, job, 0);
    QVERIFY(all.size() > 5);
    for (size_t i = 0; i < all.size(); ++i) {
      v1::RunEvent event;
      event.ParseFromString(all[i]);
      QCOMPARE(event.seq(), i);
    }
    for (const uint64_t from : {uint64_t{1}, all.size() / 2, all.size() - 1}) {
      const std::vector<std::string> tail = follow_all(client, job, from);
      QCOMPARE(tail, std::vector<std::string>(all.begin() + static_cast<std::ptrdiff_t>(from), all.end()));
    }
    // FetchDraws serves a chain's stored draws from an iteration on.
    grpc::ClientContext context;
    add_token(context, endpoint_.token);
    v1::FetchDrawsRequest fetch;
    fetch.set_job_id(job);
    fetch.set_chain(1);
    fetch.set_from_iteration(250);
    auto reader = stub_->FetchDraws(&context, fetch);
    v1::DrawBatch batch;
    int last = 0;
    while (reader->Read(&batch)) {
      QCOMPARE(batch.chain(), 1);
      last = batch.first_iteration() + batch.step_sizes_size();
    }
    QVERIFY(reader->Finish().ok());
    QCOMPARE(last, 400);
  }

  // The worker runs one job at a time: a second one queues, and pausing it holds it there;
  // when its turn comes it starts paused, and Resume lets it run to its end.
  void aJobPausedWhileQueuedStartsHeld() {
    const RemoteClient client(endpoint_);
    const v1::DataRef data = client.put_data((kEightSchools + "data.json").toStdString());
    // On LibTorch, long enough to be paused long before it could end.
    v1::SubmitRequest first = sample_request(kEightSchools + "eight_schools.vmod",
                                             {"--chains", "1", "--draws", "100000", "--backend", "torch"});
    *first.mutable_data() = data;
    const std::string holding = client.submit(first);
    client.pause(holding);
    QCOMPARE(client.job(holding).state(), v1::PAUSED);

    v1::SubmitRequest second = sample_request(kEightSchools + "eight_schools.vmod",
                                              {"--chains", "2", "--warmup", "100", "--draws", "100", "--seed", "3"});
    *second.mutable_data() = data;
    const std::string queued = client.submit(second);
    QCOMPARE(client.job(queued).state(), v1::QUEUED);
    client.pause(queued);
    QCOMPARE(client.job(queued).state(), v1::QUEUED);

    QCOMPARE(client.cancel(holding), v1::STOPPED);
    QVERIFY(QTest::qWaitFor([&] { return client.job(queued).state() != v1::QUEUED; }, 30000));
    QCOMPARE(client.job(queued).state(), v1::PAUSED);
    client.resume(queued);
    follow_all(client, queued, 0);
    const v1::JobInfo ended = client.job(queued);
    QVERIFY2(ended.state() == v1::FINISHED, ended.message().c_str());
  }

  void fourClientsReceiveEveryEvent() {
    const RemoteClient client(endpoint_);
    v1::SubmitRequest request = sample_request(kRadon + "radon.vmod",
                                               {"--chains", "2", "--warmup", "300", "--draws", "1500", "--seed", "4"});
    *request.mutable_data() = client.put_data((kRadon + "data.json").toStdString());
    const std::string job = client.submit(request);
    std::vector<std::future<std::vector<std::string>>> followers;
    for (int i = 0; i < 4; ++i) {
      followers.push_back(std::async(std::launch::async, [&] { return follow_all(RemoteClient(endpoint_), job, 0); }));
    }
    std::vector<std::vector<std::string>> received;
    for (auto& follower : followers) received.push_back(follower.get());
    QVERIFY(received[0].size() > 10);
    for (int i = 1; i < 4; ++i) QCOMPARE(received[i], received[0]);
    QCOMPARE(received[0].size(), client.job(job).events());
  }

 private:
  QTemporaryDir folder_;
  std::unique_ptr<LoopbackWorker> worker_;
  WorkerEndpoint endpoint_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::Worker::Stub> stub_;
};

QTEST_GUILESS_MAIN(TestRemoteProtocol)
#include "tst_remote_protocol.moc"
