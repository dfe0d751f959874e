/**
 * Completion webhooks: a finished run's callback, and each of its pauses, kept, signed, delivered with retries and
 * redelivered on request.
 */
package dev.hexaflow.application.webhooks;
