// Groups of the sweep file: tables of 1-D columns (Pareto fronts) and dense arrays over
// a group's own axes (memory limits). Written collectively, values from rank 0.
#include <hdf5_hl.h>

#include <cstring>

#include "h5.hpp"

namespace paradise::io {

void SweepFileWriter::table(const std::string& group, const std::string& dim, std::uint64_t n,
                            const std::vector<Column>& columns) {
  const std::string& path_ = impl_->path_;
  const bool root = impl_->comm_.is_root();
  Handle g = impl_->new_group(group);
  const hsize_t len = n;
  const auto dataset = [&](const std::string& name, hid_t type) {
    Handle space(PARADISE_H5(H5Screate_simple(1, &len, nullptr)), H5Sclose);
    return Handle(PARADISE_H5(H5Dcreate2(g.id, name.c_str(), type, space.id, H5P_DEFAULT,
                                         untimed_dcpl().id, H5P_DEFAULT)),
                  H5Dclose);
  };
  // the dimension: a scale named like it, holding 0..n-1
  std::vector<std::int64_t> ids(root ? n : 0);
  for (std::uint64_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<std::int64_t>(i);
  Handle scale = dataset(dim, H5T_NATIVE_INT64);
  impl_->write_slabs(scale.id, H5T_NATIVE_INT64, ids.data(), 0, root ? n : 0, {n});
  PARADISE_H5(H5DSset_scale(scale.id, dim.c_str()));
  for (const Column& c : columns) {
    const std::size_t given = c.kind == Column::Kind::Text      ? c.text.size()
                              : c.kind == Column::Kind::Integer ? c.integers.size()
                                                                : c.reals.size();
    if (root && given != n)
      throw Error("column '" + c.name + "' of " + group + " has " + std::to_string(given) +
                  " values, not " + std::to_string(n));
    Handle d;
    if (c.kind == Column::Kind::Text) {
      // fixed-length strings, as wide as rank 0's widest (+1), agreed on by broadcast
      std::uint64_t width = 1;
      for (const auto& t : c.text) width = std::max<std::uint64_t>(width, t.size() + 1);
      std::vector<std::uint8_t> w(sizeof width);
      std::memcpy(w.data(), &width, sizeof width);
      w = impl_->comm_.broadcast_bytes(std::move(w));
      std::memcpy(&width, w.data(), sizeof width);
      std::vector<char> packed(root ? n * width : 0, '\0');
      for (std::size_t i = 0; root && i < c.text.size() && i < n; ++i)
        c.text[i].copy(packed.data() + i * width, c.text[i].size());
      Handle type(PARADISE_H5(H5Tcopy(H5T_C_S1)), H5Tclose);
      PARADISE_H5(H5Tset_size(type.id, width));
      PARADISE_H5(H5Tset_strpad(type.id, H5T_STR_NULLTERM));
      d = dataset(c.name, type.id);
      impl_->write_slabs(d.id, type.id, packed.data(), 0, root ? n : 0, {n});
      impl_->string_attribute(d.id, "_Encoding", "utf-8");
    } else if (c.kind == Column::Kind::Integer) {
      d = dataset(c.name, H5T_NATIVE_INT64);
      impl_->write_slabs(d.id, H5T_NATIVE_INT64, c.integers.data(), 0, root ? n : 0, {n});
    } else {
      d = dataset(c.name, H5T_NATIVE_DOUBLE);
      impl_->write_slabs(d.id, H5T_NATIVE_DOUBLE, c.reals.data(), 0, root ? n : 0, {n});
    }
    PARADISE_H5(H5DSattach_scale(d.id, scale.id, 0));
    impl_->string_attribute(d.id, "long_name", c.description);
  }
}

void SweepFileWriter::arrays(const std::string& group, const std::vector<GroupAxis>& axes,
                             const std::vector<GroupArray>& arrays) {
  const std::string& path_ = impl_->path_;
  const bool root = impl_->comm_.is_root();
  Handle g = impl_->new_group(group);
  std::map<std::string, std::pair<Handle, std::uint64_t>> scales;
  for (std::size_t a = 0; a < axes.size(); ++a) {
    const auto& x = axes[a];
    const int dimid = static_cast<int>(a);
    if (!x.labels.empty()) {
      std::vector<char> packed;
      Handle type = impl_->text_type(x.labels, packed);
      Handle s =
          impl_->make_scale(g.id, x.name, type.id, type.id, packed.data(), x.labels.size(), dimid);
      impl_->string_attribute(s.id, "_Encoding", "utf-8");
      scales[x.name] = {std::move(s), x.labels.size()};
    } else if (!x.reals.empty()) {
      scales[x.name] = {impl_->make_scale(g.id, x.name, H5T_NATIVE_DOUBLE, H5T_NATIVE_DOUBLE,
                                          x.reals.data(), x.reals.size(), dimid),
                        x.reals.size()};
    } else {
      scales[x.name] = {impl_->make_scale(g.id, x.name, H5T_NATIVE_INT64, H5T_NATIVE_INT64,
                                          x.values.data(), x.values.size(), dimid),
                        x.values.size()};
    }
  }
  for (const auto& a : arrays) {
    std::vector<hsize_t> dims;
    std::vector<std::uint64_t> flat_dims;
    std::uint64_t n = 1;
    for (const auto& d : a.dims) {
      const auto it = scales.find(d);
      if (it == scales.end()) {
        std::string message = "array '";
        message.append(a.name).append("' of ").append(group).append(": no axis ").append(d);
        throw Error(message);
      }
      dims.push_back(it->second.second);
      flat_dims.push_back(it->second.second);
      n *= it->second.second;
    }
    if (root && a.values.size() != n)
      throw Error("array '" + a.name + "' of " + group + " has " + std::to_string(a.values.size()) +
                  " values, not " + std::to_string(n));
    Handle space(PARADISE_H5(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr)),
                 H5Sclose);
    Handle d(PARADISE_H5(H5Dcreate2(g.id, a.name.c_str(), H5T_NATIVE_INT64, space.id, H5P_DEFAULT,
                                    untimed_dcpl().id, H5P_DEFAULT)),
             H5Dclose);
    impl_->write_slabs(d.id, H5T_NATIVE_INT64, a.values.data(), 0, root ? n : 0, flat_dims);
    for (std::size_t j = 0; j < a.dims.size(); ++j)
      PARADISE_H5(H5DSattach_scale(d.id, scales[a.dims[j]].first.id, static_cast<unsigned>(j)));
    impl_->string_attribute(d.id, "long_name", a.description);
  }
}

void SweepFileWriter::group_attribute(const std::string& group, const std::string& name,
                                      const std::string& value) {
  const std::string& path_ = impl_->path_;
  Handle g(PARADISE_H5(H5Gopen2(impl_->file_.id, group.c_str(), H5P_DEFAULT)), H5Gclose);
  impl_->string_attribute(g.id, name, value);
}

void SweepFileWriter::dataset_attribute(const std::string& path, const std::string& name,
                                        const std::string& value) {
  const std::string& path_ = impl_->path_;
  Handle d(PARADISE_H5(H5Dopen2(impl_->file_.id, path.c_str(), H5P_DEFAULT)), H5Dclose);
  impl_->string_attribute(d.id, name, value);
}

}  // namespace paradise::io
