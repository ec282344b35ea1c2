#include "paradise/io/sweep_output.hpp"

#include <hdf5.h>

#include <vector>

#include "h5.hpp"
#include "paradise/io/sweep_file_writer.hpp"

namespace paradise::io {
namespace {

// The value of the root's string attribute `name`, or "" if it is missing or not a string.
std::string root_text(hid_t file, const char* name) {
  if (H5Aexists(file, name) <= 0) return "";
  Handle attr(H5Aopen(file, name, H5P_DEFAULT), H5Aclose);
  if (attr.id < 0) return "";
  Handle type(H5Aget_type(attr.id), H5Tclose);
  if (type.id < 0 || H5Tget_class(type.id) != H5T_STRING || H5Tis_variable_str(type.id) > 0)
    return "";
  const std::size_t size = H5Tget_size(type.id);
  if (size == 0 || size > (std::size_t{1} << 20)) return "";
  Handle space(H5Aget_space(attr.id), H5Sclose);
  if (space.id < 0 || H5Sget_simple_extent_npoints(space.id) != 1) return "";
  std::vector<char> text(size + 1, '\0');
  if (H5Aread(attr.id, type.id, text.data()) < 0) return "";
  return {text.data()};
}

}  // namespace

std::string why_not_sweep_output(const std::string& path) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // no HDF5-DIAG: the answer says why
  Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
  // read-only, without HDF5's file lock (refused by some file systems; nothing is written)
  if (fapl.id < 0 || H5Pset_file_locking(fapl.id, false, true) < 0)
    return "cannot be opened (H5Pcreate failed)";
  Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, fapl.id), H5Fclose);
  if (file.id < 0) return "cannot be opened (" + h5_error_cause() + ")";
  if (root_text(file.id, "complete") != "true" ||
      !root_text(file.id, "title").starts_with("ParaDiSE sweep "))
    return "an HDF5 file without the root attributes complete = \"true\" and title "
           "\"ParaDiSE sweep ...\"";
  return "";
}

bool files_left_open() {
  return H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_FILE) > 0;
}

}  // namespace paradise::io
