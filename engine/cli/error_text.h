#pragma once
// How the commands that run LibTorch word an error: LibTorch's own (c10::Error) by its
// message without the backtrace it carries, any other by its what().

#include <exception>
#include <string>

namespace variate::cli {

std::string error_text(const std::exception& error);

}  // namespace variate::cli
