package dev.hexaflow.app;

import java.util.concurrent.atomic.AtomicInteger;
import sun.misc.Signal;

/**
 * SIGTERM and SIGINT as an operator means them: the first one drains the server (see {@link Hexaflow#close()})
 * and the process exits 0 once everything is committed; a second one ends the grace period at once, so that the
 * runs still in flight are stopped, never left running. Any other way the JVM stops (System.exit, the last
 * thread ending) still closes the server through a shutdown hook.
 */
final class ShutdownSignals {

    private ShutdownSignals() {
    }

    static void install(Hexaflow hexaflow) {
        AtomicInteger received = new AtomicInteger();
        Runtime.getRuntime().addShutdownHook(new Thread(hexaflow::close, "hexaflow-shutdown"));
        for (String name : new String[] {"TERM", "INT"}) {
            try {
                Signal.handle(new Signal(name), signal -> {
                    if (received.getAndIncrement() == 0) {
                        Thread drain = new Thread(() -> {
                            try {
                                hexaflow.close();
                            } finally {
                                System.exit(Main.OK);
                            }
                        }, "hexaflow-drain");
                        drain.start();
                    } else {
                        hexaflow.hurry();
                    }
                });
            } catch (IllegalArgumentException | UnsupportedOperationException notHere) {
                // A JVM without this signal (or with -Xrs) stops through the shutdown hook alone.
            }
        }
    }
}
