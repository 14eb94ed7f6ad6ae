import { z } from 'zod';
import { M } from '../messages.js';
import { MAX_LAYOUT_SEATS, MAX_ROWS, MAX_SEATS_PER_ROW, MAX_SECTIONS, ROW_LABEL_SCHEMES, SEAT_NUMBERING, generateSeats } from '../seating.js';
import { zUuid } from './events.js';

// Issue 27: reserved seating's contracts (docs/seating.md).

/** The seating's messages, written once for the editor, the seat map and the server. */
export const SM = {
  layoutNameRequired: 'Layout name is required',
  sectionNameRequired: 'Section name is required',
  categoryRequired: 'Category is required',
  sectionNamesUnique: 'Each section needs its own name',
  tooManySeats: `A layout has at most ${MAX_LAYOUT_SEATS.toLocaleString('en-US')} seats`,
  unknownSeatKey: 'A marked seat is not in the layout',
  seatNotFound: 'That seat is not in this event’s seating plan',
  seatUnavailable: (labels: string) => `Sorry, ${labels} ${labels.includes(',') ? 'are' : 'is'} no longer available. Please choose other seats.`,
  seatWrongType: 'That seat is not sold as the ticket type chosen',
  seatLimit: (max: number) => `You can choose at most ${max} seats in one order`,
  noSeatsTogether: (n: number) => `There are no ${n} seats together left for this ticket. Try fewer seats or pick them on the map.`,
  seatHoldExpired: 'Your seats were released because the time to complete your order ran out. Please choose your seats again.',
  seatsDoNotMatchCart: 'The seats chosen do not match the tickets in your cart. Please choose your seats again.',
  seatsRequired: 'Please choose your seats on the map first.',
  seatingInUse: 'Seats of this event are held or sold: its seating plan can no longer change.',
  unknownCategory: (category: string) => `“${category}” is not a category of this layout`,
  categoryUnmapped: (category: string) => `Choose the ticket type seats of “${category}” sell as`,
  ticketTypeNotFound: 'That ticket type is not one of this event’s',
  layoutNotFound: 'That venue layout does not exist',
  unvoidSeatTaken: (label: string) => `This ticket cannot be restored: its seat (${label}) has been sold again.`,
  latePaymentSeatsTaken: 'The seats of this order were taken by another buyer after its time ran out: the payment is given back.',
} as const;

const zName = (required: string) => z.string().trim().min(1, required).max(60, M.invalidValue);

export const ZSectionSpec = z.object({
  name: zName(SM.sectionNameRequired),
  category: zName(SM.categoryRequired),
  rows: z.number().int().min(1, M.invalidValue).max(MAX_ROWS, M.invalidValue),
  seatsPerRow: z.number().int().min(1, M.invalidValue).max(MAX_SEATS_PER_ROW, M.invalidValue),
  rowLabels: z.enum(ROW_LABEL_SCHEMES).default('letters'),
  firstRow: z.number().int().min(1, M.invalidValue).max(500, M.invalidValue).default(1),
  numbering: z.enum(SEAT_NUMBERING).default('ltr'),
  aisleAfter: z.array(z.number().int().min(1, M.invalidValue).max(MAX_SEATS_PER_ROW, M.invalidValue)).max(20, M.invalidValue).default([]),
  curve: z.number().min(0, M.invalidValue).max(10, M.invalidValue).default(0),
  angle: z.number().int().min(-90, M.invalidValue).max(90, M.invalidValue).default(0),
  x: z.number().int().min(-100_000, M.invalidValue).max(100_000, M.invalidValue).default(0),
  y: z.number().int().min(-100_000, M.invalidValue).max(100_000, M.invalidValue).default(0),
});
export type TSectionSpec = z.infer<typeof ZSectionSpec>;

const zKeys = z.array(z.string().min(1).max(200)).max(MAX_LAYOUT_SEATS, M.invalidValue).default([]);

/** A layout as the editor saves it: its sections' grids and the seats the house marks. */
export const ZVenueLayoutInput = z
  .object({
    name: zName(SM.layoutNameRequired),
    sections: z.array(ZSectionSpec).min(1, M.invalidValue).max(MAX_SECTIONS, M.invalidValue),
    blocked: zKeys,
    kept: zKeys,
    accessible: zKeys,
    companion: zKeys,
  })
  .superRefine((v, ctx) => {
    const names = v.sections.map((s) => s.name.toLowerCase());
    if (new Set(names).size !== names.length) ctx.addIssue({ code: 'custom', path: ['sections'], message: SM.sectionNamesUnique });
    const total = v.sections.reduce((n, s) => n + s.rows * s.seatsPerRow, 0);
    if (total > MAX_LAYOUT_SEATS) {
      ctx.addIssue({ code: 'custom', path: ['sections'], message: SM.tooManySeats });
      return;
    }
    const keys = new Set(generateSeats(v.sections).map((s) => s.key));
    for (const field of ['blocked', 'kept', 'accessible', 'companion'] as const) {
      if (v[field].some((k) => !keys.has(k))) ctx.addIssue({ code: 'custom', path: [field], message: SM.unknownSeatKey });
    }
  });
export type TVenueLayoutInput = z.input<typeof ZVenueLayoutInput>;

export const ZVenueLayout = z.object({
  id: z.string(),
  details: z.object({
    name: z.string(),
    sections: z.array(ZSectionSpec),
    blocked: z.array(z.string()),
    kept: z.array(z.string()),
    accessible: z.array(z.string()),
    companion: z.array(z.string()),
    seatCount: z.number(),
    createdAt: z.string(),
    updatedAt: z.string(),
  }),
});
export type TVenueLayout = z.infer<typeof ZVenueLayout>;
export const ZVenueLayoutList = z.object({ result: z.array(ZVenueLayout), count: z.number(), cursor: z.string().nullable() });
export type TVenueLayoutList = z.infer<typeof ZVenueLayoutList>;

/** An event's seating: the layout copied and the ticket type each of its categories sells as. */
export const ZEventSeatingInput = z.object({
  layoutId: zUuid(),
  categories: z.array(z.object({ category: z.string().min(1).max(60), ticketTypeId: zUuid() })).max(MAX_SECTIONS, M.invalidValue),
});
export type TEventSeatingInput = z.input<typeof ZEventSeatingInput>;
export const ZEventSeating = z.object({
  layoutId: z.string().nullable(),
  layoutName: z.string().nullable(),
  categories: z.array(z.object({ category: z.string(), ticketTypeId: z.string() })),
  seatCount: z.number(),
  held: z.number(),
  sold: z.number(),
});
export type TEventSeating = z.infer<typeof ZEventSeating>;

/**
 * The seat map (static while the seating is unchanged): seats as compact tuples, one per seat
 * number n: [section index, row, seat, x, y, category index, flags (1 accessible, 2 companion)].
 */
export const ZSeatMap = z.object({
  version: z.string(),
  sections: z.array(z.string()),
  categories: z.array(z.object({ name: z.string(), ticketTypeId: z.string().nullable(), ticketTypeName: z.string().nullable(), price: z.number().nullable() })),
  seats: z.array(z.tuple([z.number(), z.string(), z.string(), z.number(), z.number(), z.number(), z.number()])),
});
export type TSeatMap = z.infer<typeof ZSeatMap>;

/** Each seat's state now, a letter per seat number (core SEAT_STATE_CHARS); polled with ETag. */
export const ZSeatStates = z.object({ version: z.string(), states: z.string() });
export type TSeatStates = z.infer<typeof ZSeatStates>;

const zSeatNumber = z.number().int().min(0, SM.seatNotFound).max(MAX_LAYOUT_SEATS, SM.seatNotFound);
export const ZSeatHoldRequest = z
  .object({
    /** Seats picked on the map, by number. */
    seats: z.array(zSeatNumber).min(1, M.invalidValue).max(50, M.invalidValue).optional(),
    /** Or the best N adjacent seats of a ticket type. */
    best: z.object({ ticketTypeId: zUuid(), quantity: z.number().int().min(1, M.invalidValue).max(50, M.invalidValue) }).optional(),
    /** This browser's earlier seat hold, given back in the same transaction. */
    replace: z.object({ holdId: zUuid(), token: z.string().min(1).max(100) }).optional().nullable(),
  });
/** Exactly one of seats and best (checked by the server after the event is found, so another tenant's event is a 404 first). */
export const isOneSeatChoice = (v: { seats?: unknown; best?: unknown }) => (v.seats ? 1 : 0) + (v.best ? 1 : 0) === 1;
export type TSeatHoldRequest = z.input<typeof ZSeatHoldRequest>;

export const ZHeldSeat = z.object({ n: z.number(), label: z.string(), section: z.string(), row: z.string(), seat: z.string(), ticketTypeId: z.string() });
export type THeldSeat = z.infer<typeof ZHeldSeat>;
export const ZSeatHold = z.object({ holdId: z.string(), token: z.string(), expiresAt: z.string(), seats: z.array(ZHeldSeat) });
export type TSeatHold = z.infer<typeof ZSeatHold>;
export const ZSeatHoldRelease = z.object({ token: z.string().min(1).max(100) });
/** What the cart and PLACE ORDER send with the lines of seated ticket types. */
export const ZSeatHoldRef = z.object({ holdId: zUuid(), token: z.string().min(1).max(100) });
export type TSeatHoldRef = z.infer<typeof ZSeatHoldRef>;
