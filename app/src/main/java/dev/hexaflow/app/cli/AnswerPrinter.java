package dev.hexaflow.app.cli;

import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.workflow.engine.RunListener;
import java.io.PrintStream;

/** Prints a chatflow's answer text as it streams, and ends its line once the run is over. */
final class AnswerPrinter implements RunListener {

    private final PrintStream out;
    private final StringBuilder printed = new StringBuilder();
    private volatile boolean open;

    AnswerPrinter(PrintStream out) {
        this.out = out;
    }

    @Override
    public synchronized void on(RunEvent event) {
        if (event instanceof RunEvent.TextChunk chunk && !chunk.text().isEmpty()) {
            out.print(chunk.text());
            out.flush();
            open = !chunk.text().endsWith("\n");
        }
    }

    /** The answer's text printed so far. */
    synchronized String printed() {
        return printed.toString();
    }

    /** Ends the answer's last line, if it left one open. */
    void endLine() {
        if (open) {
            out.println();
            open = false;
        }
    }
}
