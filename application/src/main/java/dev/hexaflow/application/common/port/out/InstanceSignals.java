package dev.hexaflow.application.common.port.out;

import java.util.function.Consumer;

/**
 * Tells the other instances serving the same store what happened here (a row they may hold in memory changed, a
 * task they run is to stop), and hears what they tell: at most once each, in the order told, within milliseconds
 * while the instances reach the store. An instance does not hear what it told itself.
 */
public interface InstanceSignals {

    /** Tells every other instance {@code message} on {@code topic}; a message is a few hundred characters at most. */
    void tell(String topic, String message);

    /** Calls {@code listener} with each message another instance tells on {@code topic}, on a thread of its own. */
    void hear(String topic, Consumer<String> listener);

    /**
     * Whether what is told reaches this instance now: while it does not (the store is out of reach), a change
     * another instance makes may go unheard, so what is kept in memory must not be trusted.
     */
    boolean hearing();

    /**
     * Calls {@code action} whenever this instance may have missed messages (it lost the store, and hears again
     * from now on): whatever it keeps in memory of what others change is to be read afresh.
     */
    void onMissed(Runnable action);

}
