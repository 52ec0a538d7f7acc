#pragma once
/// Which backend evaluates a model's density: the static tape (fast on the CPU for the
/// models people fit every day) or LibTorch (GPU, float32, batched chains, deep models,
/// models written with the C++ API). `auto` takes the tape whenever it can
/// (select_target.h). Free of ATen, for the studio's settings.

#include <optional>
#include <string>

namespace variate::tape {

enum class Backend { automatic, tape, torch };

/// "auto", "tape", "torch".
const char* backend_name(Backend backend);
/// nullopt for another name.
std::optional<Backend> parse_backend(const std::string& name);

}  // namespace variate::tape
