// What the door hears and feels after each scan (issue 11): a high double beep and a short buzz
// when admitted, a low long tone and a long buzz when refused. Silent where the device cannot.

let audio: AudioContext | null = null;

function tone(freq: number, start: number, duration: number) {
  if (!audio) return;
  const osc = audio.createOscillator();
  const gain = audio.createGain();
  osc.frequency.value = freq;
  osc.type = 'sine';
  gain.gain.setValueAtTime(0.25, audio.currentTime + start);
  gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + start + duration);
  osc.connect(gain).connect(audio.destination);
  osc.start(audio.currentTime + start);
  osc.stop(audio.currentTime + start + duration);
}

/** Browsers allow sound after a user gesture: the page calls this on its first tap. */
export function unlockSound() {
  try {
    audio ??= new AudioContext();
    void audio.resume();
  } catch {
    audio = null;
  }
}

export function signal(kind: 'admitted' | 'refused') {
  try {
    if (kind === 'admitted') {
      tone(880, 0, 0.12);
      tone(1320, 0.14, 0.16);
      navigator.vibrate?.(120);
    } else {
      tone(220, 0, 0.6);
      navigator.vibrate?.([300, 120, 300]);
    }
  } catch {
    // A device without sound or vibration still shows the answer.
  }
}
