/**
 * Knowledge bases (the Knowledge API): datasets, documents, segments, metadata, tags, ingestion, and retrieval
 * for the knowledge-retrieval node.
 */
package dev.hexaflow.application.knowledge;
