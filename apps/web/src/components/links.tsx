import { Anchor, AnchorProps, Button, ButtonProps } from '@mantine/core';
import { createLink, LinkComponent } from '@tanstack/react-router';
import { AnchorHTMLAttributes, forwardRef } from 'react';

// Mantine's look with the router's typed links (TanStack Router's createLink): `to`, `params` and
// `search` are checked against the route tree.

type AnchorElementProps = AnchorProps & AnchorHTMLAttributes<HTMLAnchorElement>;
const MantineAnchor = forwardRef<HTMLAnchorElement, AnchorElementProps>((props, ref) => <Anchor ref={ref} {...props} />);
MantineAnchor.displayName = 'MantineAnchor';
const RouterAnchor = createLink(MantineAnchor);
export const AnchorLink: LinkComponent<typeof MantineAnchor> = (props) => <RouterAnchor preload="intent" {...props} />;

type ButtonElementProps = ButtonProps & AnchorHTMLAttributes<HTMLAnchorElement>;
const MantineButtonAnchor = forwardRef<HTMLAnchorElement, ButtonElementProps>((props, ref) => <Button component="a" ref={ref} {...props} />);
MantineButtonAnchor.displayName = 'MantineButtonAnchor';
const RouterButton = createLink(MantineButtonAnchor);
export const ButtonLink: LinkComponent<typeof MantineButtonAnchor> = (props) => <RouterButton preload="intent" {...props} />;
