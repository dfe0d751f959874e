/**
 * Workflow runs: start one (blocking, streaming or async), stop, follow, read, list logs and node executions,
 * prune and drain; the recorder that keeps a run before anyone hears of it. It reads apps and files through their
 * ports and tells the webhooks context of a finished run through its own CompletionWebhooks port.
 */
package dev.hexaflow.application.runs;
