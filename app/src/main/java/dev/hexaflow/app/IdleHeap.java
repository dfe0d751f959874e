package dev.hexaflow.app;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.VMOption;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Lets a server's heap shrink when it is idle. A start leaves a heap of some 130 MB, most of it the start's
 * garbage, and G1 keeps what it committed for good unless a collection finds the heap idle and too free: these
 * are the JVM flags that make it do so, which {@code java -jar} cannot be given by the jar itself but the JVM lets a
 * running program set ("manageable" flags). Each is set only where the operator left it at the JVM's default, so
 * {@code -XX:G1PeriodicGCInterval=0} (or any other value) on the command line wins.
 */
final class IdleHeap {

    /**
     * A collection after this many milliseconds without one, which gives free heap back to the system; a server
     * under load collects far more often and never reaches it.
     */
    static final String PERIODIC_GC_MILLIS = "10000";

    private IdleHeap() {
    }

    /** The flags and the values a server sets, in the order they must be set (the lower bound first). */
    static Map<String, String> defaults() {
        Map<String, String> flags = new LinkedHashMap<>();
        // After a collection the heap keeps 10 to 30 % free (the JVM's 40 to 70 % keeps twice the live data).
        flags.put("MinHeapFreeRatio", "10");
        flags.put("MaxHeapFreeRatio", "30");
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
            try {
                if (vm.getVMOption(flag).getOrigin() == VMOption.Origin.DEFAULT) {
                    vm.setVMOption(flag, value);
                }
            } catch (IllegalArgumentException e) {
                // Not this JVM's flag (another collector's, another vendor's): its own defaults stand.
            }
        });
    }
}
