/*
 * genviz-a11y: a JupyterLab / Voila "prebuilt" (federated) extension written by hand, with no
 * build step and no npm dependency (see genviz/widgets/static/ARCHITECTURE.md, "Accessibility of the live widgets").
 *
 * The host's loader (JupyterLab 4 main bundle; Voila 0.5 the same code) does, for every entry of
 * the page config's `federated_extensions` (read from this directory's package.json):
 *   1. add <script src="{fullLabextensionsUrl}/genviz-a11y/static/remoteEntry.js">;
 *   2. `await window._JUPYTERLAB["genviz-a11y"].init(shareScope)`;
 *   3. `factory = await window._JUPYTERLAB["genviz-a11y"].get("./extension")`, `module = factory()`,
 *      and takes `module.default` (when `module.__esModule`) as a plugin or list of plugins.
 * We share no package with the host, so `init` has nothing to do.
 *
 * The plugin watches the page and
 *   - names every slider handle (noUiSlider's element with role="slider" inside an ipywidgets
 *     `.widget-slider`): `aria-labelledby` the widget's visible description (`.widget-label`,
 *     given an id) or, when the description is empty, `aria-label` from its tooltip;
 *     range sliders' two handles get "… (lower)" / "… (upper)" names;
 *   - makes every genviz explorer readout (`.genviz-readout`, the HTML widget's persistent
 *     element) a polite, atomic status region, so screen readers announce each new readout
 *     (the widget replaces only the inner markup, never this element).
 */
(function () {
  "use strict";
  var NAME = "genviz-a11y";
  var MARK = "data-genviz-a11y";
  var counter = 0;

  function labelText(label) {
    return label ? (label.textContent || "").trim() : "";
  }

  function nameSliders(root) {
    var handles = root.querySelectorAll(".widget-slider [role='slider']");
    for (var i = 0; i < handles.length; i++) {
      var handle = handles[i];
      // A name someone else gave (ipywidgets upstream one day, an author) is kept.
      if (!handle.hasAttribute(MARK) &&
          (handle.hasAttribute("aria-label") || handle.hasAttribute("aria-labelledby"))) {
        continue;
      }
      var widget = handle.closest(".widget-slider");
      var label = null;
      for (var c = widget.firstElementChild; c; c = c.nextElementSibling) {
        if (c.classList.contains("widget-label")) { label = c; break; }
      }
      var text = labelText(label);
      var target = widget.querySelectorAll("[role='slider']");
      var suffix = "";
      if (target.length === 2) {
        suffix = handle === target[0] ? " (lower)" : " (upper)";
      }
      if (text && !suffix) {
        if (!label.id) { label.id = "genviz-a11y-label-" + (++counter); }
        if (handle.getAttribute("aria-labelledby") !== label.id) {
          handle.setAttribute("aria-labelledby", label.id);
          handle.removeAttribute("aria-label");
        }
      } else {
        var name = (text || (label && label.title) || widget.title || "").trim();
        if (!name) { continue; }
        name += suffix;
        if (handle.getAttribute("aria-label") !== name) {
          handle.setAttribute("aria-label", name);
          handle.removeAttribute("aria-labelledby");
        }
      }
      handle.setAttribute(MARK, "");
    }
  }

  function markReadouts(root) {
    var readouts = root.querySelectorAll(".genviz-readout:not([aria-live])");
    for (var i = 0; i < readouts.length; i++) {
      readouts[i].setAttribute("role", "status");
      readouts[i].setAttribute("aria-live", "polite");
      readouts[i].setAttribute("aria-atomic", "true");
    }
  }

  function fix() {
    nameSliders(document);
    markReadouts(document);
  }

  var scheduled = false;
  function schedule(records) {
    if (scheduled) { return; }
    // Only element insertions can bring a new slider, handle or readout; a readout update or a
    // label text change (characterData) does too cheaply to matter, but skip pure text edits.
    for (var i = 0; i < records.length; i++) {
      if (records[i].addedNodes.length) {
        scheduled = true;
        // A microtask: after the widget has finished building its DOM, before the next paint.
        Promise.resolve().then(function () { scheduled = false; fix(); });
        return;
      }
    }
  }

  var started = false;
  function start() {
    if (started) { return; }
    started = true;
    fix();
    new MutationObserver(schedule).observe(document.body, {childList: true, subtree: true});
  }

  var plugin = {
    id: NAME + ":plugin",
    description: "Accessible names for slider handles; explorer readouts as polite live regions.",
    autoStart: true,
    activate: function () { start(); }
  };

  var container = {
    init: function () { return Promise.resolve(); },
    get: function (module) {
      if (module !== "./extension") {
        return Promise.reject(new Error(NAME + ": no module " + module));
      }
      return Promise.resolve(function () {
        return {__esModule: true, default: plugin};
      });
    }
  };

  window._JUPYTERLAB = window._JUPYTERLAB || {};
  window._JUPYTERLAB[NAME] = container;
  // For tests and for pages with no plugin system: the same functions, by name.
  window.genvizA11y = {fix: fix, start: start, version: "0.1.0"};
})();
