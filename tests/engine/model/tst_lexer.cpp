// Lexer: token kinds, numbers, comments, bracket repair, lexical errors, hostile input.

#include <random>

#include <QtTest/QtTest>

#include "engine/model/lexer.h"

using variate::model::Diagnostics;
using variate::model::Source;
using variate::model::Token;
using variate::model::TokenKind;

namespace {

const char* kind_name(TokenKind kind) {
  switch (kind) {
    case TokenKind::identifier: return "name";
    case TokenKind::integer: return "int";
    case TokenKind::real: return "real";
    case TokenKind::plus: return "+";
    case TokenKind::minus: return "-";
    case TokenKind::star: return "*";
    case TokenKind::slash: return "/";
    case TokenKind::caret: return "^";
    case TokenKind::at: return "@";
    case TokenKind::equals: return "=";
    case TokenKind::tilde: return "~";
    case TokenKind::colon: return ":";
    case TokenKind::comma: return ",";
    case TokenKind::dot:
      return ".";
    case TokenKind::left_paren: return "(";
    case TokenKind::right_paren: return ")";
    case TokenKind::left_bracket: return "[";
    case TokenKind::right_bracket: return "]";
    case TokenKind::keyword_data: return "DATA";
    case TokenKind::keyword_real: return "REAL";
    case TokenKind::keyword_int: return "INT";
    case TokenKind::comment: return "#";
    case TokenKind::newline: return "NL";
    case TokenKind::error: return "ERROR";
    case TokenKind::end_of_file: return "EOF";
  }
  return "?";
}

struct Lexed {
  std::vector<Token> tokens;
  Diagnostics diagnostics;
};

Lexed lex(const Source& source) {
  Lexed lexed;
  lexed.tokens = variate::model::tokenize(source, lexed.diagnostics);
  return lexed;
}

// "name ~ name ( int , int ) NL EOF"; synthetic tokens are marked with a '!'.
QString kinds(const std::vector<Token>& tokens) {
  QStringList names;
  for (const Token& token : tokens) {
    names << QString(kind_name(token.kind)) + (token.synthetic ? "!" : "");
  }
  return names.join(' ');
}

// The header lines of all diagnostics, without the quoted source.
QStringList messages(const Source& source, const Diagnostics& diagnostics) {
  QStringList out;
  for (const auto& diagnostic : diagnostics) {
    out << QString::fromStdString(variate::model::format(source, diagnostic)).section('\n', 0, 0);
  }
  return out;
}

}  // namespace

class TestLexer : public QObject {
  Q_OBJECT

 private slots:
  void tokenKinds_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");
    QTest::newRow("random variable")
        << "mu ~ Normal(0, 5)\n" << "name ~ name ( int , int ) NL EOF";
    QTest::newRow("data declaration")
        << "data X: real[N, K]\ndata k: int" << "DATA name : REAL [ name , name ] NL DATA name : INT EOF";
    QTest::newRow("all operators") << "+-*/^@=~:,()[]" << "+ - * / ^ @ = ~ : , ( ) [ ] EOF";
    QTest::newRow("names with digits and underscores")
        << "_a1 b_2 data_x realism int8" << "name name name name name EOF";
    QTest::newRow("line break inside parentheses is not a statement end")
        << "y ~ N(a\n  + b,\n  c)\nz = 1" << "name ~ name ( name + name , name ) NL name = int EOF";
    QTest::newRow("line break inside brackets is not a statement end")
        << "x = X[1,\n 2]\n" << "name = name [ int , int ] NL EOF";
    QTest::newRow("comments are tokens")
        << "# head\nx = 1  # tail\n" << "# NL name = int # NL EOF";
    QTest::newRow("comment inside a call") << "f(a, # c\n b)" << "name ( name , # name ) EOF";
    QTest::newRow("blank lines and CRLF") << "x = 1\r\n\r\n\ty = 2" << "name = int NL NL name = int EOF";
    QTest::newRow("empty") << "" << "EOF";
    QTest::newRow("matrix product and power") << "L @ z ^ -2" << "name @ name ^ - int EOF";
  }
  void tokenKinds() {
    QFETCH(QString, text);
    QFETCH(QString, expected);
    const Source source("m.vmod", text.toStdString());
    const Lexed lexed = lex(source);
    QCOMPARE(kinds(lexed.tokens), expected);
    QVERIFY2(lexed.diagnostics.empty(), qPrintable(messages(source, lexed.diagnostics).join('\n')));
  }

  void numbers_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("isInteger");
    QTest::addColumn<double>("value");
    QTest::newRow("integer") << "12" << true << 12.0;
    QTest::newRow("zero") << "0" << true << 0.0;
    QTest::newRow("decimal") << "2.5" << false << 2.5;
    QTest::newRow("leading dot") << ".5" << false << 0.5;
    QTest::newRow("trailing dot") << "3." << false << 3.0;
    QTest::newRow("negative exponent") << "1e-10" << false << 1e-10;
    QTest::newRow("capital exponent with sign") << "2.5E+3" << false << 2500.0;
    QTest::newRow("exponent without sign") << "7e2" << false << 700.0;
    QTest::newRow("largest exact integer") << "9007199254740992" << true << 9007199254740992.0;
    QTest::newRow("tenth") << "0.1" << false << 0.1;
  }
  void numbers() {
    QFETCH(QString, text);
    QFETCH(bool, isInteger);
    QFETCH(double, value);
    const Source source("m.vmod", text.toStdString());
    const Lexed lexed = lex(source);
    QCOMPARE(lexed.tokens.size(), std::size_t{2});
    QCOMPARE(lexed.tokens[0].kind, isInteger ? TokenKind::integer : TokenKind::real);
    QCOMPARE(lexed.tokens[0].value, value);
    QCOMPARE(QString::fromStdString(std::string(lexed.tokens[0].text)), text);
    QVERIFY(lexed.diagnostics.empty());
  }

  void spansAndTexts() {
    const Source source("m.vmod", "theta_trans[J] ~ Normal(0, 1)  # prior\n");
    const Lexed lexed = lex(source);
    QCOMPARE(lexed.tokens[0].span.begin, std::size_t{0});
    QCOMPARE(lexed.tokens[0].span.end, std::size_t{11});
    QCOMPARE(std::string(lexed.tokens[0].text), std::string("theta_trans"));
    QCOMPARE(std::string(lexed.tokens[5].text), std::string("Normal"));
    QCOMPARE(lexed.tokens[5].span.begin, std::size_t{17});
    const Token& comment = lexed.tokens[11];
    QCOMPARE(comment.kind, TokenKind::comment);
    QCOMPARE(std::string(comment.text), std::string(" prior"));
    QCOMPARE(std::string(source.text(comment.span)), std::string("# prior"));
    QCOMPARE(lexed.tokens[12].kind, TokenKind::newline);
    QCOMPARE(lexed.tokens[12].span.begin, std::size_t{38});
  }

  void commentTextDropsTrailingBlanks() {
    const Source source("m.vmod", "#  two spaces \t\r\n#\n");
    const Lexed lexed = lex(source);
    QCOMPARE(std::string(lexed.tokens[0].text), std::string("  two spaces"));
    QCOMPARE(std::string(lexed.tokens[2].text), std::string(""));
  }

  void errors_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("tokens");
    QTest::addColumn<QStringList>("expected");
    const auto row = [](const char* name, const char* text, const char* tokens,
                        QStringList expected) {
      QTest::newRow(name) << QByteArray(text) << QString(tokens) << expected;
    };
    row("unexpected character", "x = $y\n", "name = ERROR name NL EOF",
        {"m.vmod:1:5: error: unexpected character '$'"});
    row("unexpected non-ASCII character", "x = \xC3\xA9\n", "name = ERROR NL EOF",
        {"m.vmod:1:5: error: unexpected character '\xC3\xA9' (U+00E9)"});
    row("control character", "x = \x01", "name = ERROR EOF",
        {"m.vmod:1:5: error: unexpected character U+0001"});
    // A dot is a token of its own (a method follows it); the parser judges where it stands.
    row("lone dot", "x = a.b", "name = name . name EOF", {});
    row("invalid UTF-8 bytes", "x = \xFF\xFE", "name = ERROR ERROR EOF",
        {"m.vmod:1:5: error: invalid UTF-8 byte 0xFF", "m.vmod:1:6: error: invalid UTF-8 byte 0xFE"});
    row("truncated UTF-8 sequence", "x \xC3", "name ERROR EOF",
        {"m.vmod:1:3: error: invalid UTF-8 byte 0xC3"});
    row("overlong UTF-8 encoding", "\xC0\xAF", "ERROR ERROR EOF",
        {"m.vmod:1:1: error: invalid UTF-8 byte 0xC0", "m.vmod:1:2: error: invalid UTF-8 byte 0xAF"});
    row("invalid UTF-8 in a comment", "# ok \xFF\nx", "# NL name EOF",
        {"m.vmod:1:6: error: invalid UTF-8 byte 0xFF"});
    row("exponent without digits", "x = 1e", "name = real EOF",
        {"m.vmod:1:5: error: malformed number '1e': the exponent has no digits"});
    row("exponent sign without digits", "1e-)", "real EOF",
        {"m.vmod:1:1: error: malformed number '1e-': the exponent has no digits",
         "m.vmod:1:4: error: unmatched ')'"});
    row("letters stuck to a number", "x = 12abc", "name = int EOF",
        {"m.vmod:1:5: error: malformed number '12abc'"});
    row("two decimal points", "1.2.3", "real EOF", {"m.vmod:1:1: error: malformed number '1.2.3'"});
    row("real out of range", "1e999", "real EOF", {"m.vmod:1:1: error: number '1e999' is out of range"});
    row("integer too large", "9007199254740993", "int EOF",
        {"m.vmod:1:1: error: integer '9007199254740993' is too large (the largest is 9007199254740992)"});
    row("unmatched closer is dropped", "x = a)\n", "name = name NL EOF",
        {"m.vmod:1:6: error: unmatched ')'"});
    row("wrong closer is read as the right one", "f(a]", "name ( name )! EOF",
        {"m.vmod:1:4: error: closing ']' does not match '('", "m.vmod:1:2: note: '(' opened here"});
    row("missing inner closer is inserted", "a[f(x]", "name [ name ( name )! ] EOF",
        {"m.vmod:1:6: error: closing ']' does not match '('", "m.vmod:1:4: note: '(' opened here"});
    row("unclosed at end of file", "f(a, [b", "name ( name , [ name ]! )! EOF",
        {"m.vmod:1:2: error: '(' was never closed", "m.vmod:1:6: error: '[' was never closed"});
    row("unclosed before a statement", "y ~ N(a,\nb ~ M(1)\n",
        "name ~ name ( name , )! NL name ~ name ( int ) NL EOF",
        {"m.vmod:1:6: error: '(' was never closed"});
    row("unclosed before a data declaration", "y = f(a\n\ndata N: int",
        "name = name ( name )! NL DATA name : INT EOF",
        {"m.vmod:1:6: error: '(' was never closed"});
  }
  void errors() {
    QFETCH(QByteArray, text);
    QFETCH(QString, tokens);
    QFETCH(QStringList, expected);
    const Source source("m.vmod", text.toStdString());
    const Lexed lexed = lex(source);
    QCOMPARE(messages(source, lexed.diagnostics), expected);
    QCOMPARE(kinds(lexed.tokens), tokens);
  }

  void continuationLinesAreNotStatements_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("tokens");
    // Lines inside brackets that cannot start a statement continue it, even unindented.
    QTest::newRow("dims continue in column 1")
        << "beta[K,\nL] ~ N(0, 1)" << "name [ name , name ] ~ name ( int , int ) EOF";
    QTest::newRow("named argument in column 1")
        << "k ~ P(\nlog_rate = f)" << "name ~ name ( name = name ) EOF";
    QTest::newRow("comment line in column 1") << "f(a,\n# note\nb)" << "name ( name , # name ) EOF";
    QTest::newRow("indented statement-like line")
        << "f(a,\n  b ~ c)" << "name ( name , name ~ name ) EOF";
  }
  void continuationLinesAreNotStatements() {
    QFETCH(QString, text);
    QFETCH(QString, tokens);
    const Source source("m.vmod", text.toStdString());
    const Lexed lexed = lex(source);
    QVERIFY(lexed.diagnostics.empty());
    QCOMPARE(kinds(lexed.tokens), tokens);
  }

  void randomBytesFinishQuicklyWithCappedErrors() {
    std::mt19937_64 generator(20240601);
    std::string bytes(10 * 1000 * 1000, '\0');
    for (char& c : bytes) c = static_cast<char>(generator() & 0xFF);
    const Source source("noise.bin", std::move(bytes));
    QElapsedTimer timer;
    timer.start();
    const Lexed lexed = lex(source);
    qInfo("took %lld ms", static_cast<long long>(timer.elapsed()));  // reported, not asserted
    QVERIFY(lexed.diagnostics.stopped());
    QCOMPARE(lexed.diagnostics.error_count(), Diagnostics::max_errors);
    QCOMPARE(lexed.diagnostics[lexed.diagnostics.size() - 1].message,
             std::string("too many errors; stopping"));
    QCOMPARE(lexed.tokens.back().kind, TokenKind::end_of_file);
  }

  void hostileInputsRunInLinearTime_data() {
    QTest::addColumn<QByteArray>("unit");
    QTest::addColumn<int>("errors");
    // Each is repeated to 10 MB: no quadratic rescans, no unbounded queues.
    QTest::newRow("open parentheses") << QByteArray("(") << 100;
    QTest::newRow("open parentheses and line breaks") << QByteArray("(\n") << 100;
    QTest::newRow("comment lines inside a bracket") << QByteArray("[\n#\n") << 100;
    QTest::newRow("statement-like lines inside brackets") << QByteArray("(\nx ~ y\n") << 100;
    QTest::newRow("one long name") << QByteArray("a") << 0;
    QTest::newRow("one long number") << QByteArray("7") << 1;
    QTest::newRow("balanced pairs") << QByteArray("([])") << 0;
  }
  void hostileInputsRunInLinearTime() {
    QFETCH(QByteArray, unit);
    QFETCH(int, errors);
    const std::size_t size = 10 * 1000 * 1000;
    std::string text;
    text.reserve(size + unit.size());
    while (text.size() < size) text += unit.toStdString();
    const Source source("hostile.vmod", std::move(text));
    Diagnostics diagnostics;
    variate::model::Lexer lexer(source, diagnostics);
    QElapsedTimer timer;
    timer.start();
    std::size_t count = 1;
    while (lexer.next().kind != TokenKind::end_of_file) ++count;
    qInfo("took %lld ms", static_cast<long long>(timer.elapsed()));  // reported, not asserted
    QCOMPARE(static_cast<int>(diagnostics.error_count()), errors);
    QVERIFY(count > 1);
  }
};

QTEST_APPLESS_MAIN(TestLexer)
#include "tst_lexer.moc"
