package io.wirebench.contract;

/**
 * Go's math/rand/v2 PCG source and the parts of rand.Rand the data set uses, bit for
 * bit: a 128-bit linear congruential generator with the DXSM output function
 * (Go's src/math/rand/v2/pcg.go), and IntN by Lemire's multiply-and-reject method
 * (uint64n in rand.go), so that a data set built here equals the Go one byte for byte.
 * Java longs stand in for uint64: additions, multiplications and xors are the same bits;
 * only comparisons, divisions and the high half of a product need unsigned forms.
 *
 * <p>Not safe for concurrent use: one generator belongs to one thread.
 */
public final class Pcg {
  private static final long MUL_HI = 2549297995355413924L;
  private static final long MUL_LO = 4865540595714422341L;
  private static final long INC_HI = 6364136223846793005L;
  private static final long INC_LO = 1442695040888963407L;
  private static final long CHEAP_MUL = 0xda942042e4dd58b5L;

  private long hi;
  private long lo;

  /** The state of rand.NewPCG(seed1, seed2). */
  public Pcg(long seed1, long seed2) {
    this.hi = seed1;
    this.lo = seed2;
  }

  /** Returns the next output, Go's PCG.Uint64. */
  public long uint64() {
    // state = state * mul + inc, in 128 bits.
    long h = unsignedMultiplyHigh(lo, MUL_LO);
    long l = lo * MUL_LO;
    h += hi * MUL_LO + lo * MUL_HI;
    long sum = l + INC_LO;
    long carry = Long.compareUnsigned(sum, l) < 0 ? 1 : 0;
    h += INC_HI + carry;
    lo = sum;
    hi = h;
    // DXSM: double xorshift multiply.
    h ^= h >>> 32;
    h *= CHEAP_MUL;
    h ^= h >>> 48;
    h *= (sum | 1);
    return h;
  }

  /** Go's rand.Rand.IntN for n > 0 on a 64-bit machine. */
  public int intN(int n) {
    if (n <= 0) {
      throw new IllegalArgumentException("invalid argument to IntN: " + n);
    }
    return (int) uint64n(n);
  }

  /** Go's rand.Rand.Int64N for n > 0 (the same uint64n as IntN on 64-bit machines). */
  public long int64N(long n) {
    if (n <= 0) {
      throw new IllegalArgumentException("invalid argument to Int64N: " + n);
    }
    return uint64n(n);
  }

  /** Go's Float64: 53 random bits as a fraction of 2⁵³, in [0, 1). */
  public double float64() {
    return (uint64() << 11 >>> 11) * 0x1.0p-53;
  }

  private long uint64n(long n) {
    if ((n & (n - 1)) == 0) { // a power of two: mask
      return uint64() & (n - 1);
    }
    long x = uint64();
    long prodHi = unsignedMultiplyHigh(x, n);
    long prodLo = x * n;
    if (Long.compareUnsigned(prodLo, n) < 0) {
      long thresh = Long.remainderUnsigned(-n, n);
      while (Long.compareUnsigned(prodLo, thresh) < 0) {
        x = uint64();
        prodHi = unsignedMultiplyHigh(x, n);
        prodLo = x * n;
      }
    }
    return prodHi;
  }

  /** The high 64 bits of the unsigned 128-bit product (Math.unsignedMultiplyHigh is Java 18). */
  static long unsignedMultiplyHigh(long a, long b) {
    return Math.multiplyHigh(a, b) + ((a >> 63) & b) + ((b >> 63) & a);
  }
}
