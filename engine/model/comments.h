#pragma once
/// Attaches comments to the statements they describe, so that the canvas and the printer
/// keep them: whole-line comments go to the statement below, a comment at the end of a
/// statement's last line to that statement, comments after the last statement to the
/// program. Also marks statements preceded by a blank line.

#include <vector>

#include "engine/model/ast.h"
#include "engine/model/source.h"
#include "engine/model/token.h"

namespace variate::model {

/// `comments` are the lexer's comment tokens in source order; the statements' spans must
/// be in source order too.
void attach_comments(const Source& source, const std::vector<Token>& comments,
                     Program& program);

}  // namespace variate::model
