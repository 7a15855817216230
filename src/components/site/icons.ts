import {
  ArrowRight,
  Award,
  Building,
  Calendar,
  ChartColumn,
  ChartLine,
  Check,
  CircleCheck,
  ClipboardList,
  Clock,
  Code,
  Cog,
  Database,
  Download,
  ExternalLink,
  Factory,
  FileText,
  Flag,
  Handshake,
  Layers,
  Lightbulb,
  Mail,
  Map as MapIcon,
  MapPin,
  Menu,
  Package,
  Phone,
  Presentation,
  Puzzle,
  Search,
  Shield,
  Star,
  Target,
  Truck,
  User,
  Users,
  Wrench,
} from 'lucide-static';
import { iconBody } from './icon-body.ts';

/**
 * The site's icons by the names content stores (SPEC 3's service icon options, the home cards'
 * rotating five, the names the pages use), each one of Lucide's (lucide-static, rendered into the
 * page at build time: no icon font, no request, no JavaScript).
 */
const LUCIDE: Record<string, string> = {
  award: Award,
  puzzle: Puzzle,
  chart: ChartColumn,
  'chart-line': ChartLine,
  shield: Shield,
  truck: Truck,
  check: Check,
  users: Users,
  star: Star,
  doc: FileText,
  arrow: ArrowRight,
  mail: Mail,
  phone: Phone,
  clock: Clock,
  pin: MapPin,
  'check-circle': CircleCheck,
  lightbulb: Lightbulb,
  code: Code,
  cog: Cog,
  database: Database,
  wrench: Wrench,
  'presentation-chart': Presentation,
  'clipboard-list': ClipboardList,
  search: Search,
  calendar: Calendar,
  download: Download,
  external: ExternalLink,
  user: User,
  building: Building,
  factory: Factory,
  flag: Flag,
  handshake: Handshake,
  layers: Layers,
  package: Package,
  target: Target,
  map: MapIcon,
  menu: Menu,
};

/** The drawing of each icon, by name. */
/** How every Lucide drawing is stroked (on its own `<svg>`, or on the `<symbol>` a list shares). */
export const LUCIDE_DRAWING = {
  viewBox: '0 0 24 24',
  fill: 'none',
  stroke: 'currentColor',
  'stroke-width': '2',
  'stroke-linecap': 'round',
  'stroke-linejoin': 'round',
} as const;

export const ICONS: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(LUCIDE).map(([k, svg]) => [k, iconBody(svg)]));

/** Other names content may carry (service icon options, about cards' icon-font classes). */
const ALIASES: Record<string, string> = {
  'chart-bar': 'chart',
  certificate: 'award',
  industry: 'factory',
  bullseye: 'target',
};

/**
 * The drawing of an icon by stored name: plain names ('shield') and icon-font classes
 * ('fas fa-shield') alike. A name the site does not have gets `fallback`'s icon, else the star.
 */
export function iconFor(name: string | null | undefined, fallback = 'star'): string {
  const key = (name ?? '')
    .trim()
    .toLowerCase()
    .replace(/^(fas|far|fab|fa)\s+/, '')
    .replace(/^fa-/, '');
  return ICONS[key] ?? ICONS[ALIASES[key] ?? ''] ?? ICONS[fallback] ?? ICONS.star!;
}
