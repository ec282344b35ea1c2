// What a path names, asked without throwing: std::filesystem's status() throws when a
// directory on the way may not be searched (EACCES), which must be an input error instead.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace paradise {

/// `special`: a device, pipe or socket (readable, e.g. /dev/fd/N; never to be replaced).
enum class PathKind { file, directory, special, missing, unreachable };

struct PathStatus {
  PathKind kind = PathKind::missing;
  std::string why;  ///< for unreachable: the system's reason ("Permission denied")
};

/// The kind of `path`; a name too long for a path is missing.
PathStatus path_status(const std::string& path);

/// Why a new file cannot be written at `path` ("" if it can): it is a directory, its
/// directory does not exist or may not be written, or the file is read-only.
std::string why_unwritable(const std::string& path);

/// What is at `path` itself, a symbolic link not followed: `link` for one, else as
/// path_status (a dangling link is a link).
enum class EntryKind { missing, file, directory, link, special, unreachable };
struct EntryStatus {
  EntryKind kind = EntryKind::missing;
  std::string why;  ///< for unreachable: the system's reason
};
EntryStatus entry_status(const std::string& path);

/// A new regular file at `path`, created exclusively (O_CREAT | O_EXCL, which never follows
/// a symbolic link) and written whole with `bytes`, then synced; on failure the new file is
/// removed and InputError "PATH: cannot write (CAUSE)" is thrown.
void write_new_file(const std::string& path, std::string_view bytes);

/// Whether `path` holds an HDF5 file: its format signature at byte 0, 512, 1024, 2048, ...
/// (HDF5 File Format Specification, "Format Signature"; after a user block).
bool has_hdf5_signature(const std::string& path);

/// The most bytes read_input_file() takes by default: far beyond any model, system, CSV or
/// measurement file, far below a device or a stray data file.
inline constexpr std::size_t kMaxInputBytes = std::size_t{64} << 20;

/// The text of an input file, read in blocks and at most max_bytes of it, so that a device
/// (/dev/zero), an endless pipe or a stray huge file is refused, never read into memory
/// whole; a UTF-8 byte-order mark is dropped. Throws InputError "PATH: cannot open the
/// WHAT" or "PATH: more than N bytes, not a WHAT".
std::string read_input_file(const std::string& path, const std::string& what,
                            std::size_t max_bytes = kMaxInputBytes);

/// For a value that is a built-in's name or the path of a definition file (`--system`,
/// `--implementation`): the file's text (read_input_file) where `value` names a file; none
/// where it names nothing and looks like a name (no '/', not ending in `extension`), for the
/// caller to say "unknown"; InputError "VALUE: is a directory, not a WHAT", "VALUE: cannot
/// open WHAT (CAUSE)" or "VALUE: no such WHAT" otherwise.
std::optional<std::string> read_definition_file(const std::string& value, const std::string& what,
                                                std::string_view extension);

}  // namespace paradise
