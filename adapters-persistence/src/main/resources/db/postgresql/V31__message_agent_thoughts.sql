-- An agent-chat message's agent thoughts (Dify's MessageAgentThought rows, as JSON: one object per round of the
-- agent, with its tool inputs and answers), kept with the message so that its list answers them. Null for a
-- message kept before, or of an app that has no agent: read as none.
ALTER TABLE message ADD COLUMN agent_thoughts TEXT;
