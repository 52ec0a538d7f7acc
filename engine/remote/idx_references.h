#pragma once
/// The IDX files a CmdStan JSON data set names ({"idx_images": "train-images-idx3-ubyte.gz"}):
/// a client uploads each with the data set and names it as the worker stores it
/// (SHA256.idx, beside the data set); a worker opens no other file a data set names.

#include <functional>
#include <string>

namespace variate::remote {

/// `json` with each IDX path replaced by what `upload(path)` returns for it; relative paths
/// are taken from `folder` (the JSON file's). `json` unchanged when it names no IDX file.
/// @throws std::runtime_error for text that is not a JSON object; what `upload` throws.
std::string with_uploaded_idx_files(const std::string& json, const std::string& folder,
                                    const std::function<std::string(const std::string&)>& upload);

/// "" when every IDX file `json` names is an upload the worker holds (`held(name)`), else
/// why the job cannot run: a path on the worker's host is never opened.
std::string check_idx_references(const std::string& json, const std::function<bool(const std::string&)>& held);

/// How the worker names an uploaded IDX file: its SHA-256 and ".idx".
std::string uploaded_idx_name(const std::string& sha256);

}  // namespace variate::remote
