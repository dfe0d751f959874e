package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.VMOption;
import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

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
}
