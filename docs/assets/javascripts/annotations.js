// Annotated source (issue 23, item 17): keep each annotation marker on the line it
// annotates. The shown source wraps long lines (extra.css); a marker is an inline
// block, and a browser may break a line just before one, leaving it alone on the
// next line. Wrapping the line's last token, the spaces after it and the marker in
// one nowrap span removes that break. Material adds the markers after the page
// loads, so new ones are glued as they appear.
(function () {
  "use strict";
  var SELECTOR = ".highlight code .md-annotation";

  function glue(marker) {
    var parent = marker.parentElement;
    if (!parent || parent.classList.contains("md-annotation-glue")) return;
    var inComment = parent.matches("span.c1, span.ch, span.cm");
    var before = marker.previousSibling;
    if (inComment && before && before.nodeType === 3 && /\S/.test(before.textContent)) {
      // The line had a comment already: glue its last word to the marker, so the
      // rest of the comment can still wrap.
      var tail = before.splitText(/\S+\s*$/.exec(before.textContent).index);
      var wrap = document.createElement("span");
      wrap.className = "md-annotation-glue";
      parent.insertBefore(wrap, tail);
      wrap.appendChild(tail);
      wrap.appendChild(marker);
      return;
    }
    var holder = inComment ? parent : marker;
    if (!holder.parentNode || holder.parentElement.classList.contains("md-annotation-glue")) return;
    var nodes = [holder];
    var prev = holder.previousSibling;
    while (prev && !/\S/.test(prev.textContent)) { nodes.unshift(prev); prev = prev.previousSibling; }
    if (prev && prev.textContent.indexOf("\n") < 0) nodes.unshift(prev);
    var span = document.createElement("span");
    span.className = "md-annotation-glue";
    holder.parentNode.insertBefore(span, nodes[0]);
    nodes.forEach(function (node) { span.appendChild(node); });
  }

  function glueAll(root) {
    if (root.querySelectorAll) root.querySelectorAll(SELECTOR).forEach(glue);
  }

  new MutationObserver(function (records) {
    records.forEach(function (record) {
      record.addedNodes.forEach(function (node) {
        if (node.nodeType !== 1) return;
        if (node.matches(SELECTOR)) glue(node); else glueAll(node);
      });
    });
  }).observe(document.documentElement, { childList: true, subtree: true });
  glueAll(document);
})();
