/**
 * Annotations: an app's questions answered ahead of time (Dify's annotation reply), kept per app and listed,
 * changed and removed through the Service API; the app's annotation reply switched on (with its least similarity)
 * or off; and the chat context's {@code AnnotationReplies}, which answers a chat message from the closest
 * annotation (by the knowledge context's embedding model when one is configured) and records the hit. It uses
 * {@code common}, the {@code apps} ports, the {@code knowledge} port {@code Embeddings} and the {@code chat} port it
 * implements.
 */
package dev.hexaflow.application.annotations;
