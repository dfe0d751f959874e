/**
 * Tools the engine's tool and agent nodes call: MCP servers, OpenAPI tools, bindings, tool files and other
 * apps as tools.
 */
package dev.hexaflow.application.tools;
