/**
 * MCP servers: an app published as an MCP server, as Dify 1.x publishes one. Owns each app's server settings (off
 * by default, its URL's secret code, its description and input descriptions) and the calls at its URL: the tool it
 * lists (the app's start form as its input schema) and the runs a call starts. It uses {@code apps}' ports and
 * use cases, and starts runs through {@code runs}' and {@code chat}'s use cases, as any caller does.
 */
package dev.hexaflow.application.mcpserver;
