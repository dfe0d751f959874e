package dev.hexaflow.domain.id;

import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * Ids in the standard UUID text form, version 7 (RFC 9562): the first 48 bits are the time in milliseconds, the
 * other 74 are random. Ids made close in time sort close together, so a database index over them grows at its
 * end instead of at random places in every page; 74 random bits keep them as hard to guess as version 4's 122
 * for anything made in the same millisecond.
 *
 * <p>The random bits stay a CSPRNG's, since a run's or a task's id may be what a route trusts no stranger to
 * know. They come from a few DRBGs (NIST SP 800-90A, each seeded once from the system's entropy) chosen by the
 * thread's number, each handing out a buffer it filled in one call: one {@code SecureRandom} shared by every
 * thread (NativePRNG) takes a global lock and mixes a read of {@code /dev/urandom} for every id, and one per
 * thread would be seeded anew for every request, since a virtual thread lives for one.
 */
public final class TimeOrderedIds implements Supplier<String> {

    private static final int RANDOM_BYTES = 10;
    private static final Stripe[] STRIPES = stripes(Runtime.getRuntime().availableProcessors());

    @Override
    public String get() {
        return next(System.currentTimeMillis()).toString();
    }

    static UUID next(long millis) {
        byte[] random = new byte[RANDOM_BYTES];
        @SuppressWarnings("deprecation") // Thread.threadId() is Java 19's; getId() is the same number
        long thread = Thread.currentThread().getId();
        STRIPES[(int) (thread & (STRIPES.length - 1))].fill(random);
        long high = (millis & 0xFFFF_FFFF_FFFFL) << 16 | 0x7000L | (random[0] & 0x0FL) << 8 | (random[1] & 0xFFL);
        long low = 0x8000_0000_0000_0000L | (random[2] & 0x3FL) << 56;
        for (int i = 3; i < 10; i++) {
            low |= (random[i] & 0xFFL) << (8 * (9 - i));
        }
        return new UUID(high, low);
    }

    /** A power of two of at least twice the processors, so that threads seldom wait for one another. */
    private static Stripe[] stripes(int processors) {
        int count = Integer.highestOneBit(Math.max(1, Math.min(processors, 64)) * 4 - 1);
        Stripe[] stripes = new Stripe[count];
        for (int i = 0; i < count; i++) {
            stripes[i] = new Stripe();
        }
        return stripes;
    }

    /** One generator and the bytes it made ahead; seeded when first asked, so that a start reads no entropy. */
    private static final class Stripe {

        private final byte[] made = new byte[RANDOM_BYTES * 50];
        private int used = made.length;
        private SecureRandom random;

        synchronized void fill(byte[] out) {
            if (used + out.length > made.length) {
                if (random == null) {
                    random = drbg();
                }
                random.nextBytes(made);
                used = 0;
            }
            System.arraycopy(made, used, out, 0, out.length);
            used += out.length;
        }

        private static SecureRandom drbg() {
            try {
                return SecureRandom.getInstance("DRBG");
            } catch (NoSuchAlgorithmException e) {
                return new SecureRandom(); // a JDK without DRBG (none since 9): its default, strong as well
            }
        }
    }
}
