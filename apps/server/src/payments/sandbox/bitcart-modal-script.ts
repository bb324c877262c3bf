/**
 * The sandbox's stand-in for Bitcart's admin `/modal/bitcart.js`: `window.bitcart.showInvoice(id)` opens a
 * full-screen iframe at `{origin}/i/{id}?modal=true`, with `onModalWillEnter`, `onModalWillLeave`,
 * `onModalReceiveMessage`, `showFrame` and `hideFrame`, as the real script does.
 */
export const bitcartModalScript = `(function () {
  var script = document.currentScript;
  var origin = script ? script.src.replace(/\\/modal\\/bitcart\\.js.*$/, '') : '';
  var frame = null, willEnter = [], willLeave = [], onMessage = [];
  function call(list, arg) { list.forEach(function (cb) { try { cb(arg); } catch (e) { console.error(e); } }); }
  function hideFrame() {
    if (!frame) return;
    frame.remove(); frame = null; document.body.style.overflow = '';
    call(willLeave);
  }
  function showFrame() { if (frame) frame.style.display = 'block'; }
  function showInvoice(id) {
    hideFrame();
    frame = document.createElement('iframe');
    frame.name = 'bitcart';
    frame.title = 'Bitcart checkout';
    frame.src = origin + '/i/' + encodeURIComponent(id) + '?modal=true';
    frame.setAttribute('style', 'position:fixed;inset:0;width:100%;height:100%;border:0;z-index:2147483647;background:rgba(0,0,0,.5)');
    document.body.appendChild(frame);
    document.body.style.overflow = 'hidden';
    call(willEnter);
  }
  window.addEventListener('message', function (event) {
    if (!frame || event.source !== frame.contentWindow) return;
    call(onMessage, event);
    if (event.data === 'close') hideFrame();
  });
  window.bitcart = {
    showInvoice: showInvoice, showFrame: showFrame, hideFrame: hideFrame,
    setAdminUrlPrefix: function (url) { origin = String(url).replace(/\\/$/, ''); },
    onModalWillEnter: function (cb) { willEnter.push(cb); },
    onModalWillLeave: function (cb) { willLeave.push(cb); },
    onModalReceiveMessage: function (cb) { onMessage.push(cb); }
  };
})();
`;
