package dev.hexaflow.adapters.nodes.template;

import com.hubspot.jinjava.interpret.JinjavaInterpreter;
import com.hubspot.jinjava.lib.tag.ForTag;
import com.hubspot.jinjava.tree.TagNode;
import java.util.List;

/**
 * Jinjava's {@code for}, with each iteration counted against the render's loop limit and checked against its stop.
 * A loop with an empty body renders no node, so the node check alone would not see its iterations.
 */
final class CountedForTag extends ForTag {

    @Override
    public String renderForCollection(TagNode tagNode, JinjavaInterpreter interpreter, List<String> loopVars,
            Object collection) {
        Object walked = RenderGuard.current()
                .map(guard -> guard.counted(collection,
                        interpreter.getConfig().getLegacyOverrides().isIterateOverMapKeys()))
                .orElse(collection);
        return super.renderForCollection(tagNode, interpreter, loopVars, walked);
    }
}
