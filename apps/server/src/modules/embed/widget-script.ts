// Issue 28: the script an organiser pastes into their page (docs/embed.md):
//   <div data-marquee-event="{eventName}"></div>
//   <script src="https://{tenant host}/widget.js" data-event="{eventName}" async></script>
// It puts the event's ticket widget (/embed/{eventName}/tickets) in an iframe in that <div> (or
// right after the script when there is none), sizes the iframe to its content, takes the buyer to
// the payment page in the top window, pushes the widget's analytics events to the page's own
// dataLayer, and, back from the payment (?mq_event=…&orderID=…), opens the widget on the order
// (with the order's view token it kept for the tab, for a browser that refuses the widget storage).
// It accepts a message only from the iframe it made, from the origin it was loaded from, and only
// in one of the shapes of core's EmbedMessage. Plain ES2017, no framework: about 2 KB.
export const WIDGET_JS = `(function () {
  'use strict';
  var script = document.currentScript;
  if (!script || !script.src) return;
  var origin = new URL(script.src).origin;
  var event = script.getAttribute('data-event') || '';
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/.test(event)) {
    console.error('Marquee widget: data-event must be the event\\'s URL name.');
    return;
  }
  var target = document.querySelector('[data-marquee-event="' + event + '"]');
  if (!target) {
    target = document.createElement('div');
    script.parentNode.insertBefore(target, script.nextSibling);
  }
  if (target.querySelector('iframe[data-marquee-widget]')) return;
  var here = new URL(location.href);
  var query = new URLSearchParams();
  var step = 'tickets';
  if (here.searchParams.get('mq_event') === event) {
    var order = here.searchParams.get('orderID') || '';
    if (/^[A-Za-z0-9-]{1,64}$/.test(order)) {
      step = 'success';
      query.set('orderID', order);
    } else if (here.searchParams.get('mq_step') === 'account') {
      step = 'account';
      query.set('payment', 'cancelled');
    }
  }
  var token = '';
  if (step === 'success') {
    try { token = sessionStorage.getItem('marquee.order:' + query.get('orderID')) || ''; } catch (x) { token = ''; }
  }
  var page = new URL(location.href);
  ['mq_event', 'mq_step', 'orderID'].forEach(function (k) { page.searchParams.delete(k); });
  page.hash = '';
  query.set('mq_widget', '1');
  query.set('mq_page', page.href);
  var frame = document.createElement('iframe');
  frame.src = origin + '/embed/' + event + '/' + step + '?' + query.toString() + (token ? '#mq_token=' + encodeURIComponent(token) : '');
  frame.title = script.getAttribute('data-title') || 'Tickets';
  frame.setAttribute('data-marquee-widget', event);
  frame.style.cssText = 'display:block;width:100%;max-width:100%;height:560px;border:0;overflow:hidden;background:transparent';
  target.appendChild(frame);
  window.addEventListener('message', function (e) {
    if (e.origin !== origin || e.source !== frame.contentWindow) return;
    var m = e.data;
    if (!m || typeof m !== 'object' || typeof m.type !== 'string') return;
    if (m.type === 'marquee:resize') {
      if (typeof m.height === 'number' && isFinite(m.height) && m.height > 0 && m.height < 100000) frame.style.height = Math.ceil(m.height) + 'px';
    } else if (m.type === 'marquee:pay') {
      if (typeof m.url !== 'string') return;
      var url;
      try { url = new URL(m.url); } catch (x) { return; }
      if (url.protocol !== 'https:' && url.origin !== origin) return;
      var o = m.order;
      if (o && typeof o.uid === 'string' && typeof o.token === 'string' && /^[A-Za-z0-9-]{1,64}$/.test(o.uid) && /^[A-Za-z0-9_-]{1,200}$/.test(o.token)) {
        try { sessionStorage.setItem('marquee.order:' + o.uid, o.token); } catch (x) { /* the widget's own storage may still have it */ }
      }
      location.assign(url.href);
    } else if (m.type === 'marquee:analytics') {
      if (typeof m.event !== 'string' || !m.ecommerce || typeof m.ecommerce !== 'object') return;
      var layer = (window.dataLayer = window.dataLayer || []);
      layer.push({ ecommerce: null });
      layer.push({ event: m.event, ecommerce: m.ecommerce });
    }
  });
})();
`;
