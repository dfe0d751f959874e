package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.VMOption;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A server sets the periodic collection where the operator left it, and gives the start's heap back once, in a JVM
 * of its own here (the flags are the JVM's, and a test JVM may have served already): the heap shrinks, and G1's own
 * free ratios are back for what follows; a ratio or {@code -XX:+DisableExplicitGC} on the command line leaves it be.
 */
class IdleHeapTest {

    private final HotSpotDiagnosticMXBean vm = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);

    @Test
    void aServerSetsEachFlagTheOperatorLeftAtTheDefaultAndLeavesTheOthersAsGiven() {
        Map<String, VMOption> before = new HashMap<>();
        IdleHeap.defaults().keySet().forEach(flag -> before.put(flag, vm.getVMOption(flag)));

        IdleHeap.giveBackWhenIdle();

        IdleHeap.defaults().forEach((flag, value) -> {
            VMOption now = vm.getVMOption(flag);
            if (before.get(flag).getOrigin() == VMOption.Origin.DEFAULT) {
                assertThat(now.getValue()).as(flag).isEqualTo(value);
            } else {
                assertThat(now.getValue()).as(flag + " given on the command line").isEqualTo(before.get(flag)
                        .getValue());
            }
        });
    }

    @Test
    void theStartsHeapGoesBackOnceAndG1sOwnRatiosStandAfterIt() throws Exception {
        Map<String, String> probe = probe();

        assertThat(probe.get("collected")).isEqualTo("true");
        assertThat(Long.parseLong(probe.get("after"))).as("committed heap, bytes")
                .isLessThan(Long.parseLong(probe.get("before")) / 2);
        assertThat(probe.get("MinHeapFreeRatio")).isEqualTo("40");
        assertThat(probe.get("MaxHeapFreeRatio")).isEqualTo("70");
        assertThat(probe.get("again")).as("a ratio no longer at the JVM's default is left alone").isEqualTo("false");
    }

    @Test
    void aRatioOrDisabledCollectionsOnTheCommandLineKeepTheHeapAsG1LeavesIt() throws Exception {
        Map<String, String> ratio = probe("-XX:MaxHeapFreeRatio=50");
        assertThat(ratio.get("collected")).isEqualTo("false");
        assertThat(ratio.get("MaxHeapFreeRatio")).isEqualTo("50");
        assertThat(ratio.get("after")).isEqualTo(ratio.get("before"));

        assertThat(probe("-XX:+DisableExplicitGC").get("collected")).isEqualTo("false");
    }

    /** Runs {@link Probe} in a JVM of its own with the flags given: what it printed, as NAME=VALUE. */
    private static Map<String, String> probe(String... flags) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-XX:+UseG1GC", "-Xmx1g"));
        command.addAll(List.of(flags));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), Probe.class.getName()));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(out).isZero();
        Map<String, String> printed = new HashMap<>();
        out.lines().filter(line -> line.contains("=")).forEach(line -> printed.put(line.substring(0,
                line.indexOf('=')), line.substring(line.indexOf('=') + 1)));
        return printed;
    }

    /** A start's garbage (some 300 MB, let go), then the server's give-back, with the heap before and after. */
    public static final class Probe {
        public static void main(String[] args) {
            List<byte[]> garbage = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                garbage.add(new byte[1 << 20]);
            }
            garbage.clear();
            long before = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getCommitted();
            boolean collected = IdleHeap.giveBackTheStartsHeap();
            long after = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getCommitted();
            HotSpotDiagnosticMXBean vm = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            System.out.println("collected=" + collected);
            System.out.println("before=" + before);
            System.out.println("after=" + after);
            System.out.println("MinHeapFreeRatio=" + vm.getVMOption("MinHeapFreeRatio").getValue());
            System.out.println("MaxHeapFreeRatio=" + vm.getVMOption("MaxHeapFreeRatio").getValue());
            System.out.println("again=" + IdleHeap.giveBackTheStartsHeap());
        }
    }
}
