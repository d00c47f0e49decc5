// pcg_ref - prints outputs of the reference PCG32 (Debian's libpcg-cpp-dev,
// the published implementation) for the core/rng.c comparison test.
// Usage: pcg_ref SEED STREAM COUNT BOUND
//   prints COUNT raw 32-bit outputs, then COUNT outputs of rng(BOUND).
#include <cstdio>
#include <cstdlib>
#include <pcg_random.hpp>

int main(int argc, char **argv)
{
	if (argc != 5)
		return 2;
	unsigned long long seed = std::strtoull(argv[1], nullptr, 10);
	unsigned long long stream = std::strtoull(argv[2], nullptr, 10);
	int count = std::atoi(argv[3]);
	unsigned bound = (unsigned)std::strtoul(argv[4], nullptr, 10);
	pcg32 a(seed, stream);
	for (int i = 0; i < count; i++)
		std::printf("%u\n", (unsigned)a());
	pcg32 b(seed, stream);
	for (int i = 0; i < count; i++)
		std::printf("%u\n", (unsigned)b(bound));
	return 0;
}
