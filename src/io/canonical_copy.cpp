// A serial rewrite of a finished sweep file into a canonical layout: objects in creation
// order, attributes by name, chunks in row-major chunk order, copied raw (still deflated).
// The parallel write leaves a layout that depends on the rank count and the checkpoints
// (chunk allocation order, metadata placement, free space); the copy's bytes depend only
// on the content, so the same sweep gives the same file whatever the number of ranks.
#include <hdf5_hl.h>

#include <cstdio>
#include <string>
#include <vector>

#include "h5.hpp"

namespace paradise::io {
namespace {

// Dimension-scale bookkeeping (object references into the source file): recreated through
// the H5DS calls, never copied.
bool is_scale_attribute(const std::string& name) {
  return name == "CLASS" || name == "NAME" || name == "REFERENCE_LIST" || name == "DIMENSION_LIST";
}

constexpr const char* kCompleteAttribute = "complete";  // SweepFileWriter::commit's mark

class Copier {
 public:
  Copier(std::string from, std::string to)
      : from_(std::move(from)),
        to_(std::move(to)),
        path_(to_ + " (the canonical copy of " + from_ + ")") {}

  void copy_file() {
    // no file locks: no other process touches either file (the collective writes took
    // none either), and a lock refused by a file system (NFS without lockd) would fail it
    Handle fapl(PARADISE_H5(H5Pcreate(H5P_FILE_ACCESS)), H5Pclose);
    PARADISE_H5(H5Pset_file_locking(fapl.id, false, true));
    Handle src(PARADISE_H5(H5Fopen(from_.c_str(), H5F_ACC_RDONLY, fapl.id)), H5Fclose);
    Handle fcpl(PARADISE_H5(H5Pcreate(H5P_FILE_CREATE)), H5Pclose);
    PARADISE_H5(H5Pset_link_creation_order(fcpl.id, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED));
    untimed(fcpl.id);
    // H5F_ACC_EXCL: never over a file of the user's (a leftover copy is removed first)
    Handle dst(PARADISE_H5(H5Fcreate(to_.c_str(), H5F_ACC_EXCL, fcpl.id, fapl.id)), H5Fclose);
    created_ = true;
    Handle src_root(PARADISE_H5(H5Gopen2(src.id, "/", H5P_DEFAULT)), H5Gclose);
    Handle dst_root(PARADISE_H5(H5Gopen2(dst.id, "/", H5P_DEFAULT)), H5Gclose);
    copy_attributes(src_root.id, dst_root.id, kCompleteAttribute);
    copy_group(src_root.id, dst_root.id);
    attach_scales(dst.id);
    // checked closes: a small dataset's data reaches the file at its close (sieve buffer)
    for (auto& [from, to] : datasets_) to.close_checked("H5Dclose", to_);
    datasets_.clear();
    // the writer's "complete" mark last here too: a copy cut short never has it
    if (PARADISE_H5(H5Aexists(src_root.id, kCompleteAttribute)) > 0)
      copy_attribute(src_root.id, dst_root.id, kCompleteAttribute);
    src_root.close_checked("H5Gclose", from_);
    dst_root.close_checked("H5Gclose", to_);
    dst.close_checked("H5Fclose", to_);
  }
  bool created() const { return created_; }
  // Closes whatever is still open (after a failure), so that the copy can be removed.
  void release() { datasets_.clear(); }

 private:
  std::string from_, to_;
  std::string path_;  // for PARADISE_H5's messages
  bool created_ = false;
  struct Copied {
    Handle src, dst;
  };
  std::vector<Copied> datasets_;  // in creation order, for attach_scales

  // The links of a group in creation order (every group the writer makes tracks it).
  std::vector<std::string> links(hid_t group) {
    std::vector<std::string> names;
    const auto add = [](hid_t, const char* name, const H5L_info_t*, void* out) -> herr_t {
      static_cast<std::vector<std::string>*>(out)->emplace_back(name);
      return 0;
    };
    PARADISE_H5(H5Literate(group, H5_INDEX_CRT_ORDER, H5_ITER_INC, nullptr, add, &names));
    return names;
  }

  // Every attribute but the dimension scales' and `except`, by name.
  void copy_attributes(hid_t src, hid_t dst, const char* except = "") {
    std::vector<std::string> names;
    const auto add = [](hid_t, const char* name, const H5A_info_t*, void* out) -> herr_t {
      static_cast<std::vector<std::string>*>(out)->emplace_back(name);
      return 0;
    };
    PARADISE_H5(H5Aiterate2(src, H5_INDEX_NAME, H5_ITER_INC, nullptr, add, &names));
    for (const auto& name : names) {
      if (!is_scale_attribute(name) && name != except) copy_attribute(src, dst, name);
    }
  }

  void copy_attribute(hid_t src, hid_t dst, const std::string& name) {
    Handle a(PARADISE_H5(H5Aopen(src, name.c_str(), H5P_DEFAULT)), H5Aclose);
    Handle type(PARADISE_H5(H5Aget_type(a.id)), H5Tclose);
    Handle space(PARADISE_H5(H5Aget_space(a.id)), H5Sclose);
    const H5T_class_t cls = H5Tget_class(type.id);
    if (cls == H5T_VLEN || cls == H5T_REFERENCE || PARADISE_H5(H5Tis_variable_str(type.id)) > 0)
      throw Error("attribute " + name + " in " + from_ + " has a type the copy does not handle");
    const auto n = static_cast<std::size_t>(PARADISE_H5(H5Sget_simple_extent_npoints(space.id)));
    std::vector<unsigned char> buf(n * H5Tget_size(type.id));
    PARADISE_H5(H5Aread(a.id, type.id, buf.data()));
    Handle b(
        PARADISE_H5(H5Acreate2(dst, name.c_str(), type.id, space.id, H5P_DEFAULT, H5P_DEFAULT)),
        H5Aclose);
    PARADISE_H5(H5Awrite(b.id, type.id, buf.data()));
  }

  void copy_group(hid_t src, hid_t dst) {
    for (const auto& name : links(src)) {
      Handle obj(PARADISE_H5(H5Oopen(src, name.c_str(), H5P_DEFAULT)), H5Oclose);
      const H5I_type_t kind = H5Iget_type(obj.id);
      if (kind == H5I_GROUP) {
        Handle gcpl(PARADISE_H5(H5Pcreate(H5P_GROUP_CREATE)), H5Pclose);
        untimed(gcpl.id);
        PARADISE_H5(
            H5Pset_link_creation_order(gcpl.id, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED));
        Handle g(PARADISE_H5(H5Gcreate2(dst, name.c_str(), H5P_DEFAULT, gcpl.id, H5P_DEFAULT)),
                 H5Gclose);
        copy_attributes(obj.id, g.id);
        copy_group(obj.id, g.id);
      } else if (kind == H5I_DATASET) {
        Handle copy = copy_dataset(obj.id, dst, name);
        datasets_.push_back({std::move(obj), std::move(copy)});
      } else {
        throw Error("object " + name + " in " + from_ + " is neither a group nor a dataset");
      }
    }
  }

  Handle copy_dataset(hid_t src, hid_t where, const std::string& name) {
    Handle type(PARADISE_H5(H5Dget_type(src)), H5Tclose);
    Handle space(PARADISE_H5(H5Dget_space(src)), H5Sclose);
    Handle dcpl(PARADISE_H5(H5Dget_create_plist(src)), H5Pclose);
    untimed(dcpl.id);
    // the serial default (chunks allocated as written, at their deflated size), not the
    // parallel writer's early allocation of every chunk at full size
    PARADISE_H5(H5Pset_alloc_time(dcpl.id, H5D_ALLOC_TIME_DEFAULT));
    Handle d(PARADISE_H5(H5Dcreate2(where, name.c_str(), type.id, space.id, H5P_DEFAULT, dcpl.id,
                                    H5P_DEFAULT)),
             H5Dclose);
    const auto points = PARADISE_H5(H5Sget_simple_extent_npoints(space.id));
    if (H5Pget_layout(dcpl.id) == H5D_CHUNKED) {
      copy_chunks(src, d.id, space.id, dcpl.id);
    } else if (points > 0) {
      std::vector<unsigned char> buf(static_cast<std::size_t>(points) * H5Tget_size(type.id));
      PARADISE_H5(H5Dread(src, type.id, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf.data()));
      PARADISE_H5(H5Dwrite(d.id, type.id, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf.data()));
    }
    if (PARADISE_H5(H5DSis_scale(src)) > 0) {
      const auto len = PARADISE_H5(H5DSget_scale_name(src, nullptr, 0));
      std::string scale_name(static_cast<std::size_t>(len) + 1, '\0');
      PARADISE_H5(H5DSget_scale_name(src, scale_name.data(), scale_name.size()));
      scale_name.resize(static_cast<std::size_t>(len));
      PARADISE_H5(H5DSset_scale(d.id, scale_name.c_str()));
    }
    copy_attributes(src, d.id);
    return d;
  }

  // Every stored chunk, raw (filters already applied), in row-major order of the chunk grid.
  void copy_chunks(hid_t src, hid_t dst, hid_t space, hid_t dcpl) {
    const auto rank = static_cast<int>(PARADISE_H5(H5Sget_simple_extent_ndims(space)));
    std::vector<hsize_t> dims(static_cast<std::size_t>(rank)), chunk(dims.size()),
        offset(dims.size(), 0);
    PARADISE_H5(H5Sget_simple_extent_dims(space, dims.data(), nullptr));
    PARADISE_H5(H5Pget_chunk(dcpl, rank, chunk.data()));
    for (const hsize_t d : dims)
      if (d == 0) return;  // no chunks
    std::vector<unsigned char> buf;
    while (true) {
      unsigned mask = 0;
      haddr_t addr = HADDR_UNDEF;
      hsize_t size = 0;
      PARADISE_H5(H5Dget_chunk_info_by_coord(src, offset.data(), &mask, &addr, &size));
      if (size > 0) {  // 0: never written (read back as the fill value, so left out)
        buf.resize(static_cast<std::size_t>(size));
        std::uint32_t filters = 0;
        PARADISE_H5(H5Dread_chunk(src, H5P_DEFAULT, offset.data(), &filters, buf.data()));
        PARADISE_H5(H5Dwrite_chunk(dst, H5P_DEFAULT, filters, offset.data(), size, buf.data()));
      }
      int k = rank - 1;  // next chunk offset, last dimension fastest
      for (; k >= 0; --k) {
        const auto i = static_cast<std::size_t>(k);
        offset[i] += chunk[i];
        if (offset[i] < dims[i]) break;
        offset[i] = 0;
      }
      if (k < 0) return;
    }
  }

  // Each dataset's scales, attached as in the source (by path), after every scale exists.
  void attach_scales(hid_t dst_file) {
    for (auto& copied : datasets_) {
      const Handle& src = copied.src;  // named: clang 14 lambdas cannot capture bindings
      const Handle& dst = copied.dst;
      if (PARADISE_H5(H5DSis_scale(src.id)) > 0) continue;
      const int rank = [&] {
        Handle s(PARADISE_H5(H5Dget_space(src.id)), H5Sclose);
        return static_cast<int>(PARADISE_H5(H5Sget_simple_extent_ndims(s.id)));
      }();
      for (int dim = 0; dim < rank; ++dim) {
        if (PARADISE_H5(H5DSget_num_scales(src.id, static_cast<unsigned>(dim))) <= 0) continue;
        std::vector<std::string> paths;
        const auto named = [](hid_t, unsigned, hid_t scale, void* out) -> herr_t {
          const ssize_t len = H5Iget_name(scale, nullptr, 0);
          if (len < 0) return -1;
          std::string p(static_cast<std::size_t>(len) + 1, '\0');
          H5Iget_name(scale, p.data(), p.size());
          p.resize(static_cast<std::size_t>(len));
          static_cast<std::vector<std::string>*>(out)->push_back(p);
          return 0;
        };
        PARADISE_H5(H5DSiterate_scales(src.id, static_cast<unsigned>(dim), nullptr, named, &paths));
        for (const auto& p : paths) {
          Handle scale(PARADISE_H5(H5Dopen2(dst_file, p.c_str(), H5P_DEFAULT)), H5Dclose);
          PARADISE_H5(H5DSattach_scale(dst.id, scale.id, static_cast<unsigned>(dim)));
        }
      }
    }
  }
};

}  // namespace

void canonical_copy(const std::string& from, const std::string& to) {
  Copier copier(from, to);
  try {
    copier.copy_file();
  } catch (...) {
    copier.release();
    if (copier.created()) std::remove(to.c_str());  // never a half-written copy
    throw;
  }
}

}  // namespace paradise::io
