#pragma once
/// The parser of the model language: hand-written recursive descent over the lexer's
/// tokens (after Wirth; error recovery in panic mode, resynchronizing at the next
/// statement boundary as in Aho, Lam, Sethi & Ullman, "Compilers", 2nd ed., §4.4.5).
///
/// Grammar (a statement per line; line breaks inside ( ) or [ ] are ignored):
///   statement     := 'data' NAME ':' ('real' | 'int') dims?
///                  | NAME dims? '~' call truncation?
///                  | NAME ':' CONSTRAINT dims '~' call truncation?
///                  | NAME '=' expr
///                  | NAME '[' expr ']' '=' expr ('for' NAME 'in' expr ':' expr)?
///                  | 'target' '+=' expr
///   truncation    := 'T' '[' expr? ',' expr? ']'
///   dims          := '[' expr (',' expr)* ']'
///   expr          := or ('?' expr ':' expr)?                 (right-associative)
///   or            := and ('||' and)*
///   and           := equality ('&&' equality)*
///   equality      := comparison (('==' | '!=') comparison)*
///   comparison    := additive (('<' | '<=' | '>' | '>=') additive)*
///   additive      := term (('+' | '-') term)*
///   term          := unary (('*' | '/' | '@') unary)*
///   unary         := ('-' | '!') unary | power
///   power         := postfix ('^' unary)?                    (right-associative)
///   postfix       := primary ('[' item (',' item)* ']')*
///   item          := ':' | expr (':' expr)?
///   primary       := NUMBER | NAME | call | '(' expr ')' | '[' expr (',' expr)* ']'
///   call          := NAME '(' (arg (',' arg)*)? ')'
///   arg           := (NAME '=')? expr
///
/// Every error in a file is reported, each once: after one, the parser skips to the end
/// of the statement and goes on. Nesting deeper than 256 levels is an error rather than a
/// stack overflow.

#include "engine/model/ast.h"
#include "engine/model/diagnostic.h"
#include "engine/model/source.h"

namespace variate::model {

struct ParseResult {
  /// The statements that parsed, in order, with their comments attached.
  Program program;
  Diagnostics diagnostics;

  bool ok() const { return !diagnostics.has_errors(); }
};

/// Deepest nesting of parentheses, brackets, calls, unary operators and '^'.
inline constexpr int kMaxNesting = 256;
/// Most operators an expression may hold along one path of its tree (a sum of more terms
/// than this is an error); bounds the recursion of everything that walks the tree.
inline constexpr int kMaxExpressionHeight = 4096;

/// Parses a whole model. Example:
///   Source source("model.vmod", "mu ~ Normal(0, 5)\n");
///   ParseResult result = parse(source);
///   if (!result.ok()) std::cerr << result.diagnostics.format(source);
ParseResult parse(const Source& source);

}  // namespace variate::model
