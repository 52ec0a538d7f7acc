#pragma once
/// The UTF-8 byte order mark some editors (Notepad, Excel's "CSV UTF-8") write at the
/// start of a file. It carries no meaning in UTF-8; readers of text files drop it.

#include <string>

namespace variate {

inline constexpr char kByteOrderMark[] = "\xEF\xBB\xBF";

/// Removes a byte order mark from the start of `text`, if it has one.
inline void drop_byte_order_mark(std::string& text) {
  if (text.compare(0, 3, kByteOrderMark) == 0) text.erase(0, 3);
}

}  // namespace variate
