#include "engine/services/data_input.h"

#include <filesystem>

#include <ATen/ATen.h>
#include <nlohmann/json.hpp>

#include "engine/io/data_file.h"
#include "engine/io/portable_json_data.h"

namespace variate::services {
namespace {

// CmdStan JSON of a tensor, keeping integers integers (sizes such as N must stay ints).
nlohmann::json to_json(const at::Tensor& tensor) {
  if (tensor.dim() == 0) {
    if (at::isFloatingType(tensor.scalar_type())) return tensor.item<double>();
    return tensor.item<int64_t>();
  }
  nlohmann::json array = nlohmann::json::array();
  for (int64_t i = 0; i < tensor.size(0); ++i) array.push_back(to_json(tensor[i]));
  return array;
}

}  // namespace

Data DataInput::read() const {
  if (path) return io::read_data_file(*path);
  if (json) return io::parse_json_data(*json, name);
  return Data();
}

DataInput DataInput::of(const Data& data, std::string name) {
  nlohmann::json object = nlohmann::json::object();
  for (const auto& [key, value] : data.values()) object[key] = to_json(value);
  return text(object.dump(), std::move(name));
}

std::string DataInput::json_text() const {
  if (json) return *json;
  if (!path) return "{}";
  if (std::filesystem::path(*path).extension() == ".json") {
    return io::portable_json_data(io::read_text_file(*path), *path);
  }
  nlohmann::json object = nlohmann::json::object();
  const Data data = io::read_data_file(*path);  // alive through the loop: values() refers into it
  for (const auto& [name, value] : data.values()) object[name] = to_json(value);
  return object.dump();
}

}  // namespace variate::services
