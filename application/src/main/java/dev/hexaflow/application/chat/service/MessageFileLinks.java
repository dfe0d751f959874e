package dev.hexaflow.application.chat.service;

import dev.hexaflow.application.common.FilePreviews;
import dev.hexaflow.application.common.FileSignatures;
import dev.hexaflow.domain.chat.Message;
import dev.hexaflow.domain.chat.MessageFile;
import dev.hexaflow.domain.workflow.FileValue;

/**
 * The URLs of a message's files. A signed URL serves for five minutes and dies with the process's key, so a
 * message keeps each file's unsigned path (an upload's preview, a tool file's) and is signed each time it is
 * shown, as Dify signs on read. A URL kept signed by an earlier version is signed afresh the same way.
 */
public final class MessageFileLinks {

    private static final String TOOL_FILES = "/files/tools/";

    private final FileSignatures signatures;

    public MessageFileLinks(FileSignatures signatures) {
        this.signatures = signatures;
    }

    /** Where a message keeps a file: an upload's or a tool file's unsigned path; any other file's own URL. */
    public static String keptUrl(FileValue file) {
        if ("local_file".equals(file.transferMethod()) && file.relatedId() != null) {
            return FilePreviews.path(file.relatedId());
        }
        if ("tool_file".equals(file.transferMethod()) && file.relatedId() != null) {
            return TOOL_FILES + file.relatedId() + (file.extension() == null ? "" : file.extension());
        }
        return file.url() != null ? file.url() : file.remoteUrl();
    }

    /** The message with each of its files at a URL signed now. */
    public Message shown(Message message) {
        return message == null ? null : message.withFiles(message.files().stream().map(this::shown).toList());
    }

    /** The file at a URL signed now, when it is an upload's or a tool file's; any other as it is. */
    public MessageFile shown(MessageFile file) {
        String id = file.uploadFileId();
        if (id == null) {
            return file;
        }
        int query = file.url().indexOf('?');
        String path = query < 0 ? file.url() : file.url().substring(0, query);
        String toolFile = TOOL_FILES + id;
        boolean ours = path.equals(FilePreviews.path(id)) || path.equals(toolFile)
                || path.startsWith(toolFile + ".");
        return ours ? file.withUrl(signatures.signed(path, id)) : file;
    }
}
