/**
 * Chatflows: conversations, messages, feedback, suggested questions, conversation variables and the speech
 * routes; a chat turn is a workflow run of the runs context.
 */
package dev.hexaflow.application.chat;
