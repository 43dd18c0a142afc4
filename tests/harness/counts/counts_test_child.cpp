// A benchmark stand-in for the counts tests: a loop whose length and a number of heap blocks are
// arguments, so that their instruction and allocation counts are known in advance.
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace counts_fixture {

struct node {
  node* next;
  unsigned long payload[5];  // 48-byte blocks
};

// LOOP iterations of a dependent multiply-add the compiler cannot fold or vectorise.
__attribute__((noinline)) unsigned long spin_loop(unsigned long loop) {
  unsigned long acc = 1;
  for (unsigned long i = 0; i < loop; ++i) {
    acc = acc * 6364136223846793005ul + i;
    asm volatile("" : "+r"(acc));
  }
  return acc;
}

// Exactly BLOCKS heap blocks of sizeof(node) bytes, kept alive together as a list, then freed.
__attribute__((noinline)) unsigned long allocate_blocks(unsigned long blocks) {
  node* head = nullptr;
  for (unsigned long i = 0; i < blocks; ++i) {
    node* n = static_cast<node*>(std::malloc(sizeof(node)));
    if (!n) std::abort();
    n->next = head;
    n->payload[0] = i;
    head = n;
  }
  unsigned long sum = 0;
  while (head) {
    node* next = head->next;
    sum += head->payload[0];
    std::free(head);
    head = next;
  }
  return sum;
}

// Where main keeps its own name; volatile, so that the copy is not optimised away.
std::string* volatile kept_name = nullptr;

}  // namespace counts_fixture

int main(int argc, char** argv) {
  if (argc == 3 && std::strcmp(argv[1], "fail") == 0) {
    std::fputs("counts_test_child: failing on purpose\n", stderr);
    return std::atoi(argv[2]);
  }
  if (argc == 2 && std::strcmp(argv[1], "crash") == 0) std::raise(SIGSEGV);
  if (argc != 3) {
    std::fputs("usage: counts_test_child LOOP BLOCKS | fail CODE | crash\n", stderr);
    return 2;
  }
  // Keeps its own name, as Google Benchmark does: a heap block as long as the path.
  counts_fixture::kept_name = new std::string(argv[0]);
  const unsigned long loop = std::strtoul(argv[1], nullptr, 10), blocks = std::strtoul(argv[2], nullptr, 10);
  const unsigned long a = counts_fixture::spin_loop(loop), b = counts_fixture::allocate_blocks(blocks);
  // Fixed-width output: the digits of the results must not change printf's instruction count much.
  std::printf("%016lx %016lx\n", a, b);
  delete counts_fixture::kept_name;
  return 0;
}
