package dev.hexaflow.app;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.VMOption;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Gives a server's heap back to the system when it is not needed, without making a burst of load pay for it. A
 * start leaves a heap of some 130 MB, most of it the start's garbage, and G1 keeps what it committed for good
 * unless a collection finds it too free. Two things give it back:
 *
 * <ul>
 *   <li>once the start is done, one full collection with G1 told to keep only 10 to 30 % of the heap free, after
 *       which G1's own 40 to 70 % stand again;</li>
 *   <li>after a minute without a collection (a server with nothing to do), G1's periodic collection, which gives
 *       back what is more than 70 % free.</li>
 * </ul>
 *
 * <p>A server that gave its heap back at every pause of 10 s, keeping 10 to 30 % free, kept two thirds of the runs
 * in the next seconds of a burst (BENCHMARKS.md, issue 40). These are JVM flags {@code java -jar} cannot be given by
 * the jar itself but that the JVM lets a running program set ("manageable" flags); each is set only where the
 * operator left it at the JVM's default, so {@code -XX:G1PeriodicGCInterval=0} on the command line wins, and a
 * command line that names a free ratio or {@code -XX:+DisableExplicitGC} keeps the start's heap as G1 leaves it.
 */
final class IdleHeap {

    /**
     * A collection after this many milliseconds without one gives free heap back to the system; a server under
     * load, or between two bursts of one, collects far more often and never reaches it.
     */
    static final String PERIODIC_GC_MILLIS = "60000";

    /** How free the heap is left by the collection after the start: {@code MinHeapFreeRatio}, then the maximum. */
    static final Map<String, String> AFTER_THE_START = Map.of("MinHeapFreeRatio", "10", "MaxHeapFreeRatio", "30");

    private IdleHeap() {
    }

    /** The flags a server sets for good, and their values. */
    static Map<String, String> defaults() {
        Map<String, String> flags = new LinkedHashMap<>();
        flags.put("G1PeriodicGCInterval", PERIODIC_GC_MILLIS);
        return flags;
    }

    /** Sets {@link #defaults()} where the operator did not set them; a JVM without the flags is left as it is. */
    static void giveBackWhenIdle() {
        HotSpotDiagnosticMXBean vm = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        if (vm == null) {
            return;
        }
        defaults().forEach((flag, value) -> {
            if (leftAtDefault(vm, flag)) {
                set(vm, flag, value);
            }
        });
    }

    /**
     * Collects the start's garbage and gives the heap it freed back, keeping 10 to 30 % free, then puts G1's own
     * free ratios back so that a burst grows the heap as G1 would. Does nothing where the operator set a ratio,
     * disabled explicit collections or runs another JVM; true when it collected.
     */
    static boolean giveBackTheStartsHeap() {
        HotSpotDiagnosticMXBean vm = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        if (vm == null || !leftAtDefault(vm, "DisableExplicitGC")
                || !AFTER_THE_START.keySet().stream().allMatch(flag -> leftAtDefault(vm, flag))) {
            return false;
        }
        String min = vm.getVMOption("MinHeapFreeRatio").getValue();
        String max = vm.getVMOption("MaxHeapFreeRatio").getValue();
        // The lower bound may never pass the upper one: down, the lower first; up, the upper first.
        set(vm, "MinHeapFreeRatio", AFTER_THE_START.get("MinHeapFreeRatio"));
        set(vm, "MaxHeapFreeRatio", AFTER_THE_START.get("MaxHeapFreeRatio"));
        try {
            System.gc();
        } finally {
            set(vm, "MaxHeapFreeRatio", max);
            set(vm, "MinHeapFreeRatio", min);
        }
        return true;
    }

    private static boolean leftAtDefault(HotSpotDiagnosticMXBean vm, String flag) {
        try {
            return vm.getVMOption(flag).getOrigin() == VMOption.Origin.DEFAULT;
        } catch (IllegalArgumentException e) {
            return false; // not this JVM's flag (another collector's, another vendor's)
        }
    }

    private static void set(HotSpotDiagnosticMXBean vm, String flag, String value) {
        try {
            vm.setVMOption(flag, value);
        } catch (IllegalArgumentException e) {
            // Not this JVM's flag, or not one it lets a program set: its own value stands.
        }
    }
}
