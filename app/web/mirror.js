// The page's hidden DOM mirror of the window, for screen readers and the keyboard: its controls ask
// the window (app/web/page_mirror.cpp takes what they asked once a frame), and the window fills the
// lesson's text, the report card, the class panel's class, the canvas's name and the live region (scanvizMirror.update).
// Loaded before index.js, so that its key listeners run before those of Emscripten's GLFW, which
// listens on the whole window and keeps Tab from the browser.
(function() {
  'use strict';
  var actions = [];
  var wantsTab = false;  // a text box of the window (the kernel editor) or the quiz takes Tab
  var byId = function(id) { return document.getElementById(id); };

  function helpShown() { return !byId('help').hidden; }
  function showHelp(on) {
    byId('help').hidden = !on;
    byId('mirror-help').setAttribute('aria-expanded', on ? 'true' : 'false');
    (on ? byId('help-close') : byId('mirror-help')).focus();
  }

  // Keys in the mirror's controls, the key table and the link box are theirs: Emscripten's GLFW, which
  // listens on the whole window before them, never sees them (a button leaves the window's own keys,
  // the arrows and the letters, to the window). Stopped here, they reach no listener of the element
  // either, so what those do is done here; the browser's own actions (Tab moves the focus, Enter and
  // Space press a button, a box takes what is typed) still happen. On the canvas (or the page itself)
  // every key is the window's but Tab, which moves the focus on unless the window takes it; Escape
  // in the window's editor leaves the text, so Tab then leaves the canvas (no key trap).
  function route(e) {
    var target = e.target && e.target.closest ? e.target : null;
    var inPage = target && target.closest('#controls, #help, #link');
    if (inPage) {
      if (e.type == 'keydown') ownKey(e, target);
      var own = e.key == 'Tab' || e.key == 'Enter' || e.key == ' ' || e.key == 'Escape';
      if (target.tagName != 'BUTTON' || own) e.stopImmediatePropagation();
      return;
    }
    if (e.key == 'Tab' && !wantsTab) e.stopImmediatePropagation();
  }
  function ownKey(e, target) {
    if (e.key == 'Escape' && helpShown()) showHelp(false);
    else if (e.key == 'Escape' && target.id == 'link') target.style.display = 'none';
    else if (e.key == 'Enter' && target.id == 'mirror-n') askN();  // the window ignores an n it has
  }
  ['keydown', 'keypress', 'keyup'].forEach(function(kind) { window.addEventListener(kind, route, true); });

  function ask(action) { actions.push(action); }
  function askN() { if (byId('mirror-n').value) ask('n=' + byId('mirror-n').value); }

  function wire() {
    [['mirror-first', 'first'], ['mirror-previous', 'previous'], ['mirror-play', 'play'], ['mirror-next', 'next'],
     ['mirror-last', 'last']].forEach(function(pair) {
      byId(pair[0]).addEventListener('click', function() { ask(pair[1]); });
    });
    byId('mirror-algorithm').addEventListener('change', function(e) { ask('algorithm=' + e.target.value); });
    byId('mirror-n').addEventListener('change', askN);
    byId('mirror-help').addEventListener('click', function() { showHelp(!helpShown()); });
    byId('help-close').addEventListener('click', function() { showHelp(false); });
  }
  if (document.readyState == 'loading') document.addEventListener('DOMContentLoaded', wire);
  else wire();

  window.scanvizMirror = {
    take: function() { var said = actions.join('\n'); actions = []; return said; },
    // What the window shows (app/web/page_mirror.cpp); a text that did not change is null.
    update: function(s) {
      wantsTab = s.wantsTab;
      if (s.lesson !== null) byId('mirror-lesson').innerHTML = s.lesson;
      // The card and the class are there only while the window shows them.
      [['mirror-card', s.card], ['mirror-class', s.cls]].forEach(function(part) {
        if (part[1] === null) return;
        byId(part[0]).innerHTML = part[1];
        byId(part[0]).hidden = part[1] == '';
      });
      var canvas = byId('canvas');
      if (canvas.getAttribute('aria-label') != s.label) canvas.setAttribute('aria-label', s.label);
      if (s.announcement !== null) byId('announce').textContent = s.announcement;
      var select = byId('mirror-algorithm');
      var names = s.algorithms.split('\n').filter(function(a) { return a; });
      if (select.options.length != names.length + 1) {
        select.innerHTML = '<option value="">your kernel</option>';
        names.forEach(function(a) { select.add(new Option(a, a)); });
      }
      if (document.activeElement != select) select.value = s.algorithm;
      select.options[0].disabled = true;
      var n = byId('mirror-n');
      n.max = s.maxN;
      if (document.activeElement != n) n.value = s.n;
      byId('mirror-play').setAttribute('aria-pressed', s.playing ? 'true' : 'false');
      byId('mirror-position').textContent = s.steps ? 'Step ' + (s.step + 1) + ' of ' + s.steps : '';
    }
  };
})();
