// torch.einsum on our GEMM: each operand's repeated labels become a diagonal view and its private
// labels are summed out; then operands are contracted left to right, each pair as one batched matmul
// (batch labels, labels kept from A, labels kept from B, contracted labels).
#include <algorithm>
#include <array>

#include "tensorpad/ops.hpp"
#include "tensorpad/ops_extra.hpp"

namespace tp {

namespace {

constexpr int kLetters = 52;  // 'A'-'Z' are labels 0-25, 'a'-'z' 26-51 (ASCII order); "..." dims from 52 on
using Labels = std::vector<int64_t>;  // int64_t, not int: the vector instances the core has for shapes

int label_of(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return 26 + (c - 'a');
  return -1;
}
std::string label_name(int l) {
  if (l >= kLetters) return "...";
  return std::string(1, char(l < 26 ? 'A' + l : 'a' + (l - 26)));
}

// One term ("b...ij") as labels for a tensor of `ndim` dims (ellipsis dims right-aligned among the
// `ell` dims that "..." stands for in the whole equation), or for the output when ndim < 0.
struct Term {
  Labels letters;  // with -1 where "..." stands
  bool has_ellipsis = false;
};
Term parse_term(const std::string& eq, const std::string& s) {
  Term t;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s.compare(i, 3, "...") == 0) {
      if (t.has_ellipsis) fail("einsum", "\"...\" appears twice in term \"", s, "\" of \"", eq, "\"");
      t.has_ellipsis = true;
      t.letters.push_back(-1);
      i += 2;
    } else if (label_of(s[i]) >= 0) {
      t.letters.push_back(label_of(s[i]));
    } else {
      fail("einsum", "invalid character '", std::string(1, s[i]), "' in \"", eq, "\" (labels are a-z, A-Z; \"...\" and \"->\")");
    }
  }
  return t;
}
Labels expand_term(const Term& t, int64_t ell_here, int64_t ell_total) {
  Labels out;
  for (int l : t.letters) {
    if (l >= 0) out.push_back(l);
    else
      for (int64_t k = ell_total - ell_here; k < ell_total; ++k) out.push_back(kLetters + int(k));
  }
  return out;
}

struct Operand {
  Tensor t;
  Labels labels;  // one per dim, no repeats
};

// A label repeated within an operand: the diagonal of those dims, as a view (strides added).
Operand take_diagonals(const Tensor& x, const Labels& labels, size_t which) {
  Shape shape, strides;
  Labels kept;
  for (size_t d = 0; d < labels.size(); ++d) {
    const auto first = std::find(kept.begin(), kept.end(), labels[d]);
    if (first == kept.end()) {
      kept.push_back(labels[d]);
      shape.push_back(x.shape()[d]);
      strides.push_back(x.strides()[d]);
      continue;
    }
    const size_t k = size_t(first - kept.begin());
    if (shape[k] != x.shape()[d])
      fail("einsum", "label ", label_name(labels[d]), " repeats in operand ", which, " (shape ", x.shape(),
           ") over dims of different sizes ", shape[k], " and ", x.shape()[d]);
    strides[k] += x.strides()[d];
  }
  return {x.view(shape, strides, x.offset()), kept};
}

bool has(const Labels& ls, int l) { return std::find(ls.begin(), ls.end(), l) != ls.end(); }
size_t pos(const Labels& ls, int l) { return size_t(std::find(ls.begin(), ls.end(), l) - ls.begin()); }

// x summed over its labels not in `keep`.
Operand sum_out(const Operand& x, const Labels& keep) {
  std::vector<int64_t> dims;
  Labels left;
  for (size_t d = 0; d < x.labels.size(); ++d) {
    if (has(keep, x.labels[d])) left.push_back(x.labels[d]);
    else dims.push_back(int64_t(d));
  }
  if (dims.empty()) return x;
  return {reduce_dims(ReduceOp::Sum, x.t, dims, false), left};
}

// x's dims in the order of `order`, expanded to `size` per label, merged into groups of the given
// lengths: (prod of group 0, prod of group 1, ...).
Tensor arrange(const Operand& x, const Labels& order, const std::array<int64_t, kLetters + 16>& size,
               const std::vector<size_t>& groups) {
  Shape perm, full;
  for (int l : order) {
    perm.push_back(int64_t(pos(x.labels, l)));
    full.push_back(size[size_t(l)]);
  }
  const Tensor t = expand(permute(x.t, perm), full);
  Shape merged;
  size_t at = 0;
  for (size_t g : groups) {
    int64_t n = 1;
    for (size_t i = 0; i < g; ++i) n *= full[at + i];
    merged.push_back(n);
    at += g;
  }
  return reshape(t, merged);
}

// a and b contracted, keeping the labels in `keep` (those the output or a later operand needs).
Operand contract(const Operand& a_in, const Operand& b_in, const Labels& keep,
                 const std::array<int64_t, kLetters + 16>& size) {
  // Labels only one side has and nobody needs are summed first.
  Labels keep_a = keep, keep_b = keep;
  for (const auto& e : b_in.labels) keep_a.push_back(e);
  for (const auto& e : a_in.labels) keep_b.push_back(e);
  const Operand a = sum_out(a_in, keep_a), b = sum_out(b_in, keep_b);
  Labels batch, only_a, only_b, summed;
  for (int l : a.labels) {
    if (!has(b.labels, l)) only_a.push_back(l);
    else if (has(keep, l)) batch.push_back(l);
    else summed.push_back(l);
  }
  for (int l : b.labels)
    if (!has(a.labels, l)) only_b.push_back(l);
  // a is (batch, only_a, summed) -> (B, M, K); b is (batch, summed, only_b) -> (B, K, N); out is (B, M, N).
  Labels order_a = batch, order_b = batch;
  for (const auto& e : only_a) order_a.push_back(e);
  for (const auto& e : summed) order_a.push_back(e);
  for (const auto& e : summed) order_b.push_back(e);
  for (const auto& e : only_b) order_b.push_back(e);
  const Tensor ma = arrange(a, order_a, size, {batch.size(), only_a.size(), summed.size()});
  const Tensor mb = arrange(b, order_b, size, {batch.size(), summed.size(), only_b.size()});
  Labels labels = batch;
  for (const auto& e : only_a) labels.push_back(e);
  for (const auto& e : only_b) labels.push_back(e);
  Shape shape;
  for (int l : labels) shape.push_back(size[size_t(l)]);
  return {reshape(matmul(ma, mb), shape), labels};
}

}  // namespace

Tensor einsum(const std::string& equation, const std::vector<Tensor>& operands) {
  // operands[i] has one dim per label of term i ("..." any number); out has one per output label.
  std::string eq;
  for (char c : equation)
    if (c != ' ') eq += c;
  const size_t arrow = eq.find("->");
  const std::string lhs = eq.substr(0, arrow);
  std::vector<Term> terms;
  for (size_t start = 0;;) {
    const size_t comma = lhs.find(',', start);
    terms.push_back(parse_term(equation, lhs.substr(start, comma - start)));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (terms.size() != operands.size())
    fail("einsum", "\"", equation, "\" has ", terms.size(), " operand terms but ", operands.size(), " tensors were given");
  // How many dims "..." stands for: each operand's dims beyond its letters; the equation's is the most.
  std::vector<int64_t> ell(terms.size());
  int64_t ell_total = 0;
  for (size_t i = 0; i < terms.size(); ++i) {
    const int64_t letters = int64_t(terms[i].letters.size()) - (terms[i].has_ellipsis ? 1 : 0);
    const int64_t nd = operands[i].dim();
    if (terms[i].has_ellipsis ? nd < letters : nd != letters)
      fail("einsum", "operand ", i, " has shape ", operands[i].shape(), " (", nd, " dims), but its term in \"",
           equation, "\" has ", letters, " labels", terms[i].has_ellipsis ? " and \"...\"" : "");
    ell[i] = terms[i].has_ellipsis ? nd - letters : 0;
    ell_total = std::max(ell_total, ell[i]);
  }
  if (ell_total > 16) fail("einsum", "\"...\" stands for too many dims");
  std::vector<Operand> ops;
  std::array<int64_t, kLetters + 16> size;
  size.fill(-1);
  std::array<int, kLetters + 16> count{};
  for (size_t i = 0; i < terms.size(); ++i) {
    const Labels ls = expand_term(terms[i], ell[i], ell_total);
    for (int l : ls) ++count[size_t(l)];  // "ii" uses i twice: implicitly summed, as torch
    ops.push_back(take_diagonals(operands[i], ls, i));
    for (size_t d = 0; d < ops[i].labels.size(); ++d) {
      const size_t l = size_t(ops[i].labels[d]);
      const int64_t n = ops[i].t.shape()[d];
      if (size[l] < 0 || size[l] == 1) size[l] = n;
      else if (n != 1 && n != size[l])
        fail("einsum", "label ", label_name(int(l)), " has size ", size[l], " in an earlier operand but ", n,
             " in operand ", i, " (shape ", operands[i].shape(), ")");
    }
  }
  Labels out;
  if (arrow != std::string::npos) {
    const Term t = parse_term(equation, eq.substr(arrow + 2));
    for (int l : expand_term(t, t.has_ellipsis ? ell_total : 0, ell_total)) {
      if (l < kLetters && count[size_t(l)] == 0)
        fail("einsum", "output label ", label_name(l), " of \"", equation, "\" appears in no operand");
      if (has(out, l)) fail("einsum", "output label ", label_name(l), " of \"", equation, "\" appears twice");
      out.push_back(l);
    }
  } else {  // torch's implicit output: "..." first, then the labels used once, in ASCII order
    for (int64_t k = 0; k < ell_total; ++k) out.push_back(kLetters + int(k));
    for (int l = 0; l < kLetters; ++l)
      if (count[size_t(l)] == 1) out.push_back(l);
  }
  // Left to right; what a step keeps is what the output or a later operand names.
  Operand acc = ops[0];
  for (size_t i = 1; i <= ops.size(); ++i) {
    Labels keep = out;
    for (size_t j = i; j < ops.size(); ++j) for (const auto& e : ops[j].labels) keep.push_back(e);
    acc = i < ops.size() ? contract(acc, ops[i], keep, size) : sum_out(acc, keep);
  }
  Shape perm, full;
  for (int l : out) {
    perm.push_back(int64_t(pos(acc.labels, l)));
    full.push_back(size[size_t(l)]);
  }
  return expand(permute(acc.t, perm), full).contiguous();
}

}  // namespace tp
