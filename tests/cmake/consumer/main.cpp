// Multiplies two 2x2 matrices with the core and prints the product; exits 1 if it is not [[19, 22], [43, 50]].
#include <cstdio>

#include "tensorpad/ops.hpp"
#include "tensorpad/tensor.hpp"

int main() {
  const float a[] = {1, 2, 3, 4}, b[] = {5, 6, 7, 8}, want[] = {19, 22, 43, 50};
  tp::Tensor c = tp::matmul(tp::Tensor::from({2, 2}, a), tp::Tensor::from({2, 2}, b)).contiguous();
  bool ok = c.shape() == tp::Shape{2, 2};
  for (int i = 0; ok && i < 4; i++) ok = c.data()[i] == want[i];
  std::printf("tensorpad consumer: [[%g, %g], [%g, %g]] %s\n", c.data()[0], c.data()[1], c.data()[2], c.data()[3], ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
