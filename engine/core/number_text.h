#pragma once
/// Numbers as the model language writes them, in its printer and in messages about data.

#include <string>

namespace variate {

/// "2" for an integer (`is_integer` and integral); the shortest text that reads back
/// exactly for a real, always with a '.' or an exponent ("2.0", "0.1", "1e-10").
std::string format_number(double value, bool is_integer);

}  // namespace variate
