#include "engine/model/comments.h"

#include <algorithm>

namespace variate::model {
namespace {

bool is_blank(std::string_view line) {
  return std::all_of(line.begin(), line.end(),
                     [](char c) { return c == ' ' || c == '\t' || c == '\r'; });
}

std::size_t last_line(const Source& source, Span span) {
  return source.location(span.end > span.begin ? span.end - 1 : span.begin).line;
}

}  // namespace

void attach_comments(const Source& source, const std::vector<Token>& comments,
                     Program& program) {
  auto& statements = program.statements;
  std::size_t s = 0;
  for (const Token& token : comments) {
    const Comment comment{std::string(token.text), token.span};
    const std::size_t line = source.location(token.span.begin).line;
    // Skip statements that end on a line above the comment.
    while (s < statements.size() && statements[s].span.end <= token.span.begin &&
           last_line(source, statements[s].span) < line) {
      ++s;
    }
    if (s == statements.size()) {
      program.trailing_comments.push_back(comment);
    } else if (statements[s].span.begin < token.span.begin &&
               last_line(source, statements[s].span) == line) {
      statements[s].comment_after = comment;
    } else {
      // Above the statement, or inside it on an earlier line of a multi-line statement.
      statements[s].comments_before.push_back(comment);
    }
  }
  for (Statement& statement : statements) {
    std::size_t first = statement.span.begin;
    if (!statement.comments_before.empty()) {
      first = std::min(first, statement.comments_before.front().span.begin);
    }
    const std::size_t line = source.location(first).line;
    statement.blank_line_before = line > 1 && is_blank(source.line_text(line - 1));
  }
}

}  // namespace variate::model
