/** The simulator's page: a 390×844 phone with the mini app, and the control panel beside it. */
export function simulatorPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>World App simulator · ORO</title>
<style>${STYLE}</style>
</head>
<body>
<main class="layout">
  <section class="phone-column" aria-label="Phone">
    <div class="phone">
      <div class="phone__bar"><span id="phone-user">…</span><span class="phone__badge">World App simulator</span></div>
      <div id="phone-notification" class="phone__notification" role="status" aria-label="Latest notification" hidden></div>
      <div class="phone__screen">
        <iframe id="mini-app" title="Mini app" src="about:blank"></iframe>
        <div class="notch notch--top" aria-hidden="true" hidden></div>
        <div class="notch notch--bottom" aria-hidden="true" hidden></div>
        <div class="notch notch--capsule" aria-hidden="true" hidden title="World App's close and menu"><span>•••</span><span>✕</span></div>
        <div id="sheet" class="sheet" hidden role="dialog" aria-modal="true" aria-labelledby="sheet-title">
          <div class="sheet__card">
            <h2 id="sheet-title"></h2>
            <pre id="sheet-detail"></pre>
            <div class="row"><button id="sheet-reject" class="secondary">Reject</button><button id="sheet-approve">Approve</button></div>
          </div>
        </div>
      </div>
    </div>
  </section>
  <section class="panel" aria-label="Simulator controls">
    <h1>World App simulator</h1>
    <p class="hint">The mini app runs its World App code path: every wallet command below is answered by this simulator with local wallets, development World ID proofs and the local chain.</p>

    <fieldset>
      <legend>User and wallet</legend>
      <div id="humans"></div>
      <label class="inline">Device language
        <select id="language"></select>
      </label>
    </fieldset>

    <fieldset>
      <legend>Open the mini app</legend>
      <div class="grid2">
        <label>referralCode <input id="deep-referral-code" placeholder="e.g. ABCD2345" autocomplete="off"></label>
        <label>referredBy <input id="deep-referred-by" placeholder="e.g. alice" autocomplete="off"></label>
      </div>
      <div class="row"><button id="open-deep-link">Open deep link</button><button id="relaunch" class="secondary">Relaunch mini app</button><button id="reinstall" class="secondary">Reinstall mini app</button></div>
      <p class="hint">Frame URL: <code id="frame-url"></code></p>
    </fieldset>

    <fieldset>
      <legend>Wallet answers</legend>
      <label class="check"><input type="checkbox" id="auto-approve"> Approve wallet prompts automatically</label>
      <label class="check"><input type="checkbox" id="notch"> Phone with a notch (safe area: 47 px top, 34 px bottom; World App's top-right close and menu drawn)</label>
      <label class="check"><input type="checkbox" id="verification-fails"> Next World ID verification fails</label>
      <label class="check"><input type="checkbox" id="world-id-3-proofs"> World App makes World ID 3.0 proofs (World stops on 1 April 2027)</label>
      <label class="inline">Next transaction
        <select id="next-transaction">
          <option value="send">is sent to the local chain</option>
          <option value="fail">fails (transaction_failed)</option>
          <option value="reject">is rejected by the user</option>
          <option value="front-run">is copied and landed first by a front-runner</option>
        </select>
      </label>
      <label class="inline">When asked for notifications
        <select id="notification-answer">
          <option value="allow">Allow</option>
          <option value="deny">Don't allow</option>
        </select>
      </label>
      <div class="row"><span>Notification permission of this wallet: <strong id="permission-state"></strong></span><button id="permission-reset" class="secondary small">Reset</button></div>
    </fieldset>

    <fieldset>
      <legend>Chain time</legend>
      <p><span id="chain-time">…</span></p>
      <div class="row"><button data-advance="3600">+1 h</button><button data-advance="86400">+24 h</button><button data-advance="172800">+48 h</button></div>
      <div class="row"><label class="inline">By <input id="advance-hours" type="number" min="1" max="8784" step="1" value="20" aria-label="Hours to move chain time"> h</label><button id="advance-by">Move chain time</button></div>
    </fieldset>

    <fieldset>
      <legend>Owner tasks (local owner key)</legend>
      <p id="token-status" class="hint"></p>
      <div class="grid2">
        <label>Amount per mint (ORO) <input id="owner-amount" inputmode="decimal" placeholder="0.5"></label>
        <label>Wait between mints <input id="owner-wait" placeholder="24h, 90m, 2d"></label>
      </div>
      <div class="row"><button id="owner-set-amount">Set amount</button><button id="owner-set-wait">Set wait</button><button id="owner-killswitch" class="danger">Killswitch…</button></div>
      <div class="row"><button id="owner-close-world-id-3" class="danger">Close World ID 3.0…</button></div>
    </fieldset>

    <fieldset>
      <legend>Shared from the mini app</legend>
      <ul id="shares" class="list"></ul>
    </fieldset>

    <fieldset>
      <legend>Reminders World was asked to deliver (API outbox)</legend>
      <ul id="reminders" class="list"></ul>
    </fieldset>

    <fieldset>
      <legend>Bridge log</legend>
      <ol id="log" class="list log"></ol>
    </fieldset>
    <p id="status" role="status" class="status"></p>
  </section>
</main>
<script type="module" src="/__simulator/ui.js"></script>
</body>
</html>
`;
}

const STYLE = `
:root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: #eef0f4; color: #1c1f26; }
* { box-sizing: border-box; }
body { margin: 0; }
.layout { display: flex; gap: 24px; padding: 20px; align-items: flex-start; flex-wrap: wrap; }
.phone-column { position: sticky; top: 20px; }
.phone { width: 414px; padding: 12px; border-radius: 44px; background: #111; box-shadow: 0 10px 40px rgba(0,0,0,.25); }
.phone__bar { display: flex; justify-content: space-between; color: #ddd; font-size: 12px; padding: 4px 18px 8px; }
.phone__badge { opacity: .7; }
.phone__notification { margin: 0 6px 8px; padding: 8px 12px; border-radius: 14px; background: #2b2b2e; color: #f2f2f2; font-size: 13px; line-height: 1.35; }
.phone__notification strong { display: block; }
.phone__notification--undelivered { background: #3a2323; color: #f0c8c8; }
.phone__screen { position: relative; width: 390px; height: 844px; border-radius: 32px; overflow: hidden; background: #fff; }
/* The system bars a phone with a notch draws over the mini app (World App's safe_area_insets: 47 px, 34 px). */
.notch { position: absolute; left: 0; right: 0; pointer-events: none; background: rgba(0,0,0,.55); }
.notch--top { top: 0; height: 47px; }
.notch--bottom { bottom: 0; height: 34px; }
/* World App's close and menu capsule at the top-right, within the safe area it reports (nothing interactive of the
   mini app may sit under it: apps/web's layout test keeps a margin below it clear too). */
.notch--capsule { top: 8px; left: auto; right: 12px; width: 84px; height: 32px; border-radius: 16px; display: flex; align-items: center; justify-content: space-around; color: #fff; font-size: 13px; }
.notch--capsule[hidden] { display: none; }
#mini-app { width: 390px; height: 844px; border: 0; display: block; }
.sheet { position: absolute; inset: 0; background: rgba(0,0,0,.45); display: flex; align-items: flex-end; }
.sheet[hidden] { display: none; }
.sheet__card { width: 100%; background: #fff; border-radius: 24px 24px 0 0; padding: 20px; }
.sheet__card h2 { margin: 0 0 8px; font-size: 18px; }
.sheet__card pre { white-space: pre-wrap; word-break: break-all; font-size: 12px; background: #f4f5f7; padding: 8px; border-radius: 8px; max-height: 240px; overflow: auto; }
.panel { flex: 1; min-width: 360px; max-width: 620px; }
.panel h1 { font-size: 22px; margin: 0 0 4px; }
fieldset { border: 1px solid #d5d9e0; border-radius: 12px; background: #fff; margin: 0 0 14px; padding: 12px 14px; }
legend { font-weight: 600; padding: 0 6px; }
label { display: flex; flex-direction: column; gap: 4px; font-size: 14px; }
label.inline { flex-direction: row; align-items: center; justify-content: space-between; gap: 8px; margin: 6px 0; }
label.check { flex-direction: row; align-items: center; gap: 8px; margin: 6px 0; }
input, select { font: inherit; padding: 6px 8px; border: 1px solid #c3c8d1; border-radius: 8px; background: #fff; }
button { font: inherit; padding: 7px 14px; border-radius: 8px; border: 1px solid #1b5cff; background: #1b5cff; color: #fff; cursor: pointer; }
button.secondary { background: #fff; color: #1b5cff; }
button.danger { background: #c62828; border-color: #c62828; }
button.small { padding: 3px 10px; font-size: 13px; }
button:disabled { opacity: .5; cursor: default; }
.row { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; margin-top: 8px; }
.grid2 { display: grid; grid-template-columns: 1fr 1fr; gap: 8px; }
.hint { color: #5b6270; font-size: 13px; }
.human { border-top: 1px solid #eceef2; padding: 8px 0; }
.human:first-child { border-top: 0; }
.human__head { display: flex; flex-direction: row; justify-content: space-between; align-items: center; font-weight: 600; }
.wallet { display: flex; flex-direction: row; align-items: center; gap: 8px; font-size: 13px; padding: 3px 0 3px 6px; }
.wallet code { font-size: 12px; color: #5b6270; }
.list { margin: 0; padding-left: 18px; font-size: 13px; max-height: 220px; overflow: auto; }
.list li { margin: 4px 0; }
.log li { font-family: ui-monospace, monospace; font-size: 12px; }
.status { min-height: 1.2em; font-size: 13px; color: #1b5cff; }
.status.error { color: #c62828; }
code { font-size: 12px; }
`;
