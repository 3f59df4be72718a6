import {Text} from 'ink';
import {memo} from 'react';
import {displayWidth} from '../../../core/bytes/glyphs.js';
import type {FrameKind, Severity, StreamName} from '../../../core/types.js';
import {kindToken, severityToken, streamToken, useTheme} from '../theme.js';

/** Props of {@link FrameRow}: primitives only, so `React.memo` skips rows whose content did not change. */
export interface FrameRowProps {
	readonly mark: string;
	readonly index: string;
	readonly time: string;
	readonly dir: string;
	readonly bytes: string;
	readonly kind: string;
	readonly latency: string;
	/** Escaped, already fitted to the summary column. */
	readonly summary: string;
	readonly stream: StreamName;
	readonly frameKind: FrameKind;
	/** Highest severity of the frame's findings, or '' for none. */
	readonly severity: Severity | '';
	readonly isSelected: boolean;
	/** Row width in columns; a selected row is padded to it so the highlight spans the row. */
	readonly width: number;
}

/** The plain text of a row (for width and tests): `▶✖ idx time dir bytes kind [latency] summary`. */
export function frameRowText(props: Omit<FrameRowProps, 'stream' | 'frameKind' | 'severity' | 'width'>): string {
	const latency = props.latency === '' ? '' : ` ${props.latency}`;
	return `${props.isSelected ? '▶' : ' '}${props.mark} ${props.index} ${props.time} ${props.dir} ${props.bytes} ${props.kind}${latency} ${props.summary}`;
}

/** One fixed-height, one-line row of the frame list. */
export const FrameRow = memo(function FrameRow(props: FrameRowProps) {
	const theme = useTheme();
	const t = theme.tokens;
	const pad = props.isSelected ? ' '.repeat(Math.max(0, props.width - displayWidth(frameRowText(props)))) : '';
	const textStyle =
		props.frameKind === 'text' || props.frameKind === 'blank' || props.frameKind === 'json'
			? t[kindToken(props.frameKind, props.stream)]
			: {};
	return (
		<Text wrap="truncate-end" {...(props.isSelected ? t['ui.selected'] : {})}>
			{props.isSelected ? '▶' : ' '}
			<Text {...(props.severity === '' ? {} : t[severityToken(props.severity)])}>{props.mark}</Text> {props.index}{' '}
			<Text {...t['ui.dim']}>{props.time}</Text> <Text {...t[streamToken(props.stream)]}>{props.dir}</Text>{' '}
			{props.bytes} <Text {...t[kindToken(props.frameKind, props.stream)]}>{props.kind}</Text>
			{props.latency === '' ? '' : ` ${props.latency}`} <Text {...textStyle}>{props.summary}</Text>
			{pad}
		</Text>
	);
});
